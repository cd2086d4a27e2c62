import type { Middleware } from 'koa';

/**
 * The pages' policy: only our own scripts, styles and images; no plugins, frames or inline script;
 * forms post only here; no other site may frame a page (clickjacking).
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The API reference's: Swagger UI writes style attributes as it renders and draws its icons as
 * data: images, so styles may be inline and images data:. Scripts stay ours only (no inline script).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Every answer of the public port carries these, error pages included; /docs relaxes styles only. */
export function securityHeaders(): Middleware {
  return (ctx, next) => {
    ctx.set('Content-Security-Policy', ctx.path === '/docs' ? DOCS_CSP : PAGE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    // Pages show account data: never kept by a browser or a cache (static assets say otherwise).
    ctx.set('Cache-Control', 'no-store');
    return next();
  };
}
