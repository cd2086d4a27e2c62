import { html } from '../html.js';
import { layout, type PageFrame } from './layout.js';

export interface ErrorView {
  status: number;
  title: string;
  explanation: string;
  requestId: string;
}

/** Every failure of the dashboard is a page like the others: what happened, what to do, no internals. */
export function errorPage(frame: Omit<PageFrame, 'title'>, view: ErrorView): string {
  return layout(
    { ...frame, title: view.title },
    html`<div class="panel">
      <h1>${view.title}</h1>
      <p>${view.explanation}</p>
      <p class="actions"><a class="button" href="/dashboard">Go to the dashboard</a> <a href="/docs">API reference</a></p>
      <p class="muted">Error ${view.status} · request <code>${view.requestId}</code></p>
    </div>`,
  );
}
