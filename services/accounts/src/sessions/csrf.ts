import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * CSRF tokens, synchronizer-style without storage: a form's token is an HMAC of the browser's own
 * secret, keyed by it: the session id once signed in, the pre-session cookie before. Only a page
 * served to that browser can carry it; another session's token, or none, does not match. Cookies are
 * SameSite=Lax too, so a cross-site POST arrives without them; the token holds even where that fails.
 */
const PURPOSE = 'comps dashboard form v1';

export function csrfTokenFor(formKey: string): string {
  return createHmac('sha256', formKey).update(PURPOSE).digest('base64url');
}

/** Whether a posted token belongs to this browser's key, compared in constant time. */
export function csrfTokenMatches(formKey: string | undefined, presented: unknown): boolean {
  if (!formKey || typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfTokenFor(formKey));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
