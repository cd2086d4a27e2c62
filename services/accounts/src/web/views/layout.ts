import { html, type SafeHtml } from '../html.js';
import type { AssetName, AssetStore } from '../static-assets.js';

export type Section = 'overview' | 'explore' | 'tracked' | 'jobs' | 'webhooks' | 'keys' | 'requests' | 'docs';

const SECTIONS: Array<{ id: Section; label: string; href: string }> = [
  { id: 'overview', label: 'Overview', href: '/dashboard' },
  { id: 'explore', label: 'Explore', href: '/dashboard/explore' },
  { id: 'tracked', label: 'Tracked searches', href: '/dashboard/tracked-searches' },
  { id: 'jobs', label: 'Jobs', href: '/dashboard/jobs' },
  { id: 'webhooks', label: 'Webhooks', href: '/dashboard/webhooks' },
  { id: 'keys', label: 'API keys', href: '/dashboard/keys' },
  { id: 'requests', label: 'Requests', href: '/dashboard/requests' },
  { id: 'docs', label: 'API reference', href: '/docs' },
];

export interface PageFrame {
  assets: AssetStore;
  title: string;
  /** The signed-in user, for the header (and the sign-out form's CSRF token). */
  account?: { email: string; csrfToken: string } | undefined;
  current?: Section;
  scripts?: AssetName[];
  styles?: AssetName[];
  /** Reloads the page every this many seconds (a page of something still running; no script needed). */
  refreshSeconds?: number | undefined;
}

function header(frame: PageFrame): SafeHtml {
  const nav = frame.account
    ? html`<nav class="site-nav" aria-label="Dashboard">
        ${SECTIONS.map((section) => html`<a href="${section.href}" ${frame.current === section.id ? html`aria-current="page"` : ''}>${section.label}</a>`)}
      </nav>
      <div class="account">
        <span>${frame.account.email}</span>
        <form method="post" action="/auth/sign-out">
          <input type="hidden" name="_csrf" value="${frame.account.csrfToken}">
          <button type="submit" class="link">Sign out</button>
        </form>
      </div>`
    : html`<nav class="site-nav" aria-label="Site">
        <a href="/docs" ${frame.current === 'docs' ? html`aria-current="page"` : ''}>API reference</a>
      </nav>
      <div class="account"><a class="button secondary" href="/auth/sign-in">Sign in</a></div>`;
  return html`<header class="site-header"><div class="bar">
    <a class="brand" href="/dashboard">Comps <span>API</span></a>
    ${nav}
  </div></header>`;
}

/** The whole document around a page's content: one stylesheet, scripts only from files of ours. */
export function layout(frame: PageFrame, content: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${frame.refreshSeconds ? html`<meta http-equiv="refresh" content="${frame.refreshSeconds}">` : ''}
<title>${frame.title} · Comps API</title>
<link rel="icon" href="${frame.assets.urlOf('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${frame.assets.urlOf('dashboard.css')}">
${(frame.styles ?? []).map((name) => html`<link rel="stylesheet" href="${frame.assets.urlOf(name)}">`)}
</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
${header(frame)}
<main id="content">
${content}
</main>
<footer class="site-footer">Comps API · sold-listings data</footer>
${(frame.scripts ?? []).map((name) => html`<script src="${frame.assets.urlOf(name)}" defer></script>`)}
</body>
</html>
`.value;
}

/** A notice above a form or a table; `role="alert"` for errors so that a screen reader says them at once. */
export function notice(kind: 'error' | 'success' | 'info' | 'warning', message: string | SafeHtml | null | undefined): SafeHtml {
  if (!message) return html``;
  return kind === 'error' ? html`<div class="notice error" role="alert">${message}</div>` : html`<div class="notice ${kind}" role="status">${message}</div>`;
}
