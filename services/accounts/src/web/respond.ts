import { csrfTokenFor } from '../sessions/csrf.js';
import type { PageFrame } from './views/layout.js';
import type { WebDeps } from './web-deps.js';
import type { WebContext } from './web-state.js';

/** The parts of a page's frame that come from the request: the assets, and the signed-in user for the header. */
export function frameOf(ctx: WebContext, deps: Pick<WebDeps, 'assets'>): Omit<PageFrame, 'title' | 'current'> {
  const session = ctx.state.session;
  return { assets: deps.assets, account: session ? { email: session.email, csrfToken: csrfTokenFor(session.sessionId) } : undefined };
}

export function sendPage(ctx: WebContext, markup: string, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = markup;
}

/** 303 See Other: after a form, the browser GETs the next page (a reload does not post again). */
export function seeOther(ctx: WebContext, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
}

/** The signed-in user of a dashboard route (requireSignIn ran before it). */
export function sessionOf(ctx: WebContext) {
  const session = ctx.state.session;
  if (!session) throw new Error('dashboard route reached without a session');
  return session;
}
