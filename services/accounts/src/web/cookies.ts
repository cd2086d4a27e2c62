import type { WebContext } from './web-state.js';

/** The session id (see sessions/): HttpOnly, SameSite=Lax, Path=/, Secure when the page came over HTTPS. */
export const SESSION_COOKIE = 'comps_session';
/** A random key of a signed-out browser, for the CSRF tokens of the sign-in, sign-up and set-password forms. */
export const PRE_SESSION_COOKIE = 'comps_presession';
/** The key just created, sealed to the session, read once by the keys page. */
export const NEW_KEY_COOKIE = 'comps_new_key';
export const NEW_KEY_COOKIE_PATH = '/dashboard/keys';
/** A webhook endpoint's signing secret just made or rotated, sealed to the session, read once by the endpoint's page. */
export const NEW_WEBHOOK_SECRET_COOKIE = 'comps_new_webhook_secret';
export const NEW_WEBHOOK_SECRET_COOKIE_PATH = '/dashboard/webhooks';

interface CookieOptions {
  maxAgeMs?: number;
  path?: string;
  sameSite?: 'lax' | 'strict';
}

/**
 * Sets a cookie the way all of ours are set. `Secure` follows the request's scheme: Caddy sends
 * `X-Forwarded-Proto: https` when it took the request over TLS (the app trusts its proxy's headers).
 */
export function setCookie(ctx: WebContext, name: string, value: string, options: CookieOptions = {}): void {
  ctx.cookies.set(name, value, {
    httpOnly: true,
    sameSite: options.sameSite ?? 'lax',
    secure: ctx.secure,
    path: options.path ?? '/',
    overwrite: true,
    ...(options.maxAgeMs === undefined ? {} : { maxAge: options.maxAgeMs }),
  });
}

export function clearCookie(ctx: WebContext, name: string, path = '/'): void {
  ctx.cookies.set(name, '', { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path, overwrite: true, expires: new Date(0) });
}

export function readCookie(ctx: WebContext, name: string): string | undefined {
  return ctx.cookies.get(name) || undefined;
}
