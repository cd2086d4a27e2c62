import type { Middleware } from 'koa';
import { csrfTokenFor, csrfTokenMatches } from '../sessions/csrf.js';
import { newSecretToken } from '../sessions/secret-token.js';
import { resolveSession, type SessionLifetimes } from '../sessions/session-service.js';
import { clearCookie, PRE_SESSION_COOKIE, readCookie, SESSION_COOKIE, setCookie } from './cookies.js';
import { formField } from './forms.js';
import { PageError } from './page-error.js';
import type { WebContext, WebState } from './web-state.js';
import type { AccountsDb } from '../db/database.js';

/** Puts the signed-in user on `ctx.state.session` when the cookie names a live session; forgets a cookie that does not. */
export function loadSession(db: AccountsDb, lifetimes: SessionLifetimes, now: () => Date): Middleware<WebState> {
  return async (ctx, next) => {
    const sessionId = readCookie(ctx, SESSION_COOKIE);
    if (sessionId) {
      const session = await resolveSession(db, sessionId, now(), lifetimes);
      if (session) ctx.state.session = session;
      else clearCookie(ctx, SESSION_COOKIE);
    }
    return next();
  };
}

/** Dashboard pages are for signed-in users: others go to the sign-in page, which brings them back here afterwards. */
export function requireSignIn(): Middleware<WebState> {
  return (ctx, next) => {
    if (ctx.state.session) return next();
    const back = ctx.method === 'GET' ? `?next=${encodeURIComponent(ctx.originalUrl)}` : '';
    ctx.status = 303;
    ctx.redirect(`/auth/sign-in${back}`);
    return undefined;
  };
}

/** The forms a signed-out browser posts: their tokens derive from the pre-session cookie. */
const SIGNED_OUT_FORMS = new Set(['/auth/sign-in', '/auth/sign-up', '/auth/set-password']);

/** The key the CSRF tokens of this browser's signed-out forms derive from; made (and set as a cookie) when missing. */
export function preSessionKey(ctx: WebContext): string {
  const existing = readCookie(ctx, PRE_SESSION_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const key = newSecretToken();
  setCookie(ctx, PRE_SESSION_COOKIE, key);
  return key;
}

/** The CSRF token for a form on this page: of the session when signed in, else of the pre-session key. */
export function csrfTokenOf(ctx: WebContext, form: 'signed-in' | 'signed-out'): string {
  if (form === 'signed-in' && ctx.state.session) return csrfTokenFor(ctx.state.session.sessionId);
  return csrfTokenFor(preSessionKey(ctx));
}

/**
 * Every POST must carry the token of a form this browser was served: `_csrf`, matched against the
 * session (signed-in forms) or the pre-session cookie (sign-in, sign-up, set-password). A POST
 * without it, or with another browser's, is refused before any route runs: nothing changes.
 */
export function verifyCsrf(): Middleware<WebState> {
  return (ctx, next) => {
    // Signing out without a session changes nothing: the route just says so.
    if (ctx.method !== 'POST' || (ctx.path === '/auth/sign-out' && !ctx.state.session)) return next();
    const presented = formField(ctx, '_csrf');
    const key = SIGNED_OUT_FORMS.has(ctx.path) ? readCookie(ctx, PRE_SESSION_COOKIE) : ctx.state.session?.sessionId;
    if (!csrfTokenMatches(key, presented)) {
      throw new PageError(
        403,
        'This form has expired',
        'The form was not sent by a page of this site in this browser session, so nothing was done. Go back, reload the page and try again (cookies must be allowed).',
      );
    }
    return next();
  };
}
