import { html, type SafeHtml } from '../html.js';
import { layout, type PageFrame, type Section } from './layout.js';

export interface Confirmation {
  title: string;
  current: Section;
  heading: string;
  /** What happens, and that it cannot be undone. */
  explanation: SafeHtml;
  /** The only form that does it (so nothing is done by one click on a list). */
  action: string;
  csrfToken: string;
  button: string;
  /** Links beside the button (a download first, say). */
  extras?: SafeHtml;
  cancelHref: string;
}

/** The page a destructive button leads to: what it does, one button that does it, and the way back. */
export function confirmPage(frame: Omit<PageFrame, 'title' | 'current'>, confirmation: Confirmation): string {
  return layout(
    { ...frame, title: confirmation.title, current: confirmation.current },
    html`<div class="panel">
      <h1>${confirmation.heading}</h1>
      ${confirmation.explanation}
      <form class="actions" method="post" action="${confirmation.action}">
        <input type="hidden" name="_csrf" value="${confirmation.csrfToken}">
        <button type="submit" class="danger">${confirmation.button}</button>
        ${confirmation.extras ?? ''}
        <a href="${confirmation.cancelHref}">Cancel</a>
      </form>
    </div>`,
  );
}
