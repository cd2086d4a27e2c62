import Koa from 'koa';
import { assignRequestId } from '@comps/shared/http/assign-request-id';
import { handleErrors } from '@comps/shared/http/handle-errors';
import { logRequests } from '@comps/shared/http/log-requests';
import type { Logger } from '@comps/shared/logging/create-logger';

/**
 * The public port, behind Caddy at `/dashboard` and `/auth/*`. The dashboard and sign-in are not
 * built yet: every path answers the contract's `not_found` rather than a page that does nothing.
 */
export function createPublicApp(logger: Logger): Koa {
  const app = new Koa({ proxy: true });
  app.silent = true;
  app.on('error', (error: unknown) => logger.warn({ err: error }, 'connection error'));
  app.use(assignRequestId());
  app.use(logRequests(logger));
  app.use(handleErrors(logger));
  return app;
}
