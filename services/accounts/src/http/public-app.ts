import Koa from 'koa';
import { assignRequestId } from '@comps/shared/http/assign-request-id';
import { logRequests } from '@comps/shared/http/log-requests';
import { methodsServedOn, rejectUnservedMethods } from '@comps/shared/http/reject-unserved-methods';
import { parseForms } from '../web/forms.js';
import { renderErrors } from '../web/render-errors.js';
import { authRoutes } from '../web/routes/auth-routes.js';
import { dashboardRoutes } from '../web/routes/dashboard-routes.js';
import { docsRoutes } from '../web/routes/docs-routes.js';
import { exploreRoutes } from '../web/routes/explore-routes.js';
import { jobRoutes } from '../web/routes/job-routes.js';
import { trackedSearchRoutes } from '../web/routes/tracked-search-routes.js';
import { webhookRoutes } from '../web/routes/webhook-routes.js';
import { securityHeaders } from '../web/security-headers.js';
import { loadSession, requireSignIn, verifyCsrf } from '../web/session-middleware.js';
import type { WebDeps } from '../web/web-deps.js';
import type { WebState } from '../web/web-state.js';

/**
 * The public port, behind Caddy at `/dashboard`, `/auth/*` and `/docs`: server-rendered pages.
 * Order matters: the request id and the access log first; the security headers on every answer;
 * errors as pages; static assets (no session needed); then the form body, the session, the
 * sign-in requirement of dashboard pages, the CSRF check of every POST, the method check and the
 * routes. A path that matched nothing is the 404 page.
 */
export function createPublicApp(deps: WebDeps): Koa<WebState> {
  // Caddy replaces X-Forwarded-For with the address it saw (only that last entry is trusted), and
  // sends X-Forwarded-Proto, from which cookies learn whether they may be Secure.
  const app = new Koa<WebState>({ proxy: true, maxIpsCount: 1 });
  app.silent = true;
  app.on('error', (error: unknown) => deps.logger.warn({ err: error }, 'connection error'));

  const signedIn = requireSignIn();
  const routers = [authRoutes(deps), dashboardRoutes(deps), exploreRoutes(deps), trackedSearchRoutes(deps), jobRoutes(deps), webhookRoutes(deps), docsRoutes(deps)];

  app.use(assignRequestId());
  app.use(logRequests(deps.logger));
  app.use(securityHeaders());
  app.use(renderErrors(deps.logger, deps.assets));
  app.use(deps.assets.middleware());
  app.use(parseForms());
  app.use(loadSession(deps.db, deps.sessions, deps.now));
  app.use((ctx, next) => (ctx.path === '/dashboard' || ctx.path.startsWith('/dashboard/') ? signedIn(ctx, next) : next()));
  app.use(verifyCsrf());
  app.use(rejectUnservedMethods(methodsServedOn(routers)));
  for (const router of routers) app.use(router.routes());
  return app;
}
