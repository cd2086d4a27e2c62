import type { Middleware } from 'koa';
import type { Router } from '@koa/router';
import { AppError } from '../errors/app-error.js';
import type { AllowedMethods } from '../runtime/client-error.js';

/** Which methods the routers serve a path with (HEAD only where a route names it), null for a path none knows. */
export function methodsServedOn(routers: Array<Router<any, any>>): AllowedMethods {
  const routes = routers.flatMap((router) => router.stack).filter((layer) => layer.methods.length > 0);
  return (path) => {
    const matching = routes.filter((layer) => layer.match(path));
    if (matching.length === 0) return null;
    return [...new Set(matching.flatMap((layer) => layer.methods).filter((method) => method !== 'HEAD'))];
  };
}

/**
 * A method that a known path does not serve is 405 `method_not_allowed` with `Allow`, before any
 * route runs: nothing is authenticated, charged or fetched. The router answers HEAD with its GET
 * handler by default, which would run (and charge) a search for a HEAD; HEAD is refused like any
 * other method a route does not name. Unknown paths go on to the 404.
 */
export function rejectUnservedMethods(allowedMethods: AllowedMethods): Middleware {
  return (ctx, next) => {
    const allowed = allowedMethods(ctx.path);
    if (allowed && !allowed.includes(ctx.method)) {
      throw new AppError('method_not_allowed', `${ctx.method} is not served on this path; use ${allowed.join(' or ')}`, { allow: allowed });
    }
    return next();
  };
}
