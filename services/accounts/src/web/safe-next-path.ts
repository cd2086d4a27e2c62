/** Where signing in leads when no (acceptable) destination was asked for. */
export const DEFAULT_AFTER_SIGN_IN = '/dashboard';

const OUR_PAGES = /^\/(dashboard|docs)(\/|$)/;

/**
 * The page to return to after signing in, only if it is one of ours: a path under /dashboard or
 * /docs, on this site. Anything else (`//evil.example`, `https://…`, `/\evil`, encoded or control
 * characters that a browser would read as another host, a path of someone else's) leads to the
 * dashboard instead, so the sign-in page cannot be made into an open redirect.
 */
export function safeNextPath(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 512) return DEFAULT_AFTER_SIGN_IN;
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return DEFAULT_AFTER_SIGN_IN;
  // Browsers read a backslash as a slash and drop tabs and newlines from URLs: `/\evil`, `/\t/evil`.
  if (/[\\\s\u0000-\u001f\u007f]/.test(candidate) || /%(2f|5c|0[0-9a-f]|1[0-9a-f])/i.test(candidate.split('?')[0]!)) return DEFAULT_AFTER_SIGN_IN;
  let parsed: URL;
  try {
    parsed = new URL(candidate, 'http://comps.invalid');
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (parsed.origin !== 'http://comps.invalid' || !OUR_PAGES.test(parsed.pathname)) return DEFAULT_AFTER_SIGN_IN;
  return `${parsed.pathname}${parsed.search}`;
}
