import Koa from 'koa';
import type { RouterMiddleware } from '@koa/router';
import type { Capabilities } from '@comps/shared/contract/capabilities';
import { assignRequestId } from '@comps/shared/http/assign-request-id';
import { handleErrors } from '@comps/shared/http/handle-errors';
import { logRequests } from '@comps/shared/http/log-requests';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import type { AccountsClient } from '../accounts/accounts-client.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import type { HistoryWriter } from '../history/history-writer.js';
import { authenticate } from '../middleware/authenticate.js';
import { enforceRateLimit } from '../middleware/enforce-rate-limit.js';
import { quotaHeaders } from '../middleware/quota-headers.js';
import { recordHistory } from '../middleware/record-history.js';
import { listingRoutes, type ListingRouteDeps } from '../listings/listing-routes.js';
import { API_OPERATIONS } from '../openapi/api-operations.js';
import { assertDocumented, openApiRoutes } from '../openapi/openapi-routes.js';
import { accountRoutes } from '../routes/account-routes.js';
import { capabilitiesRoutes } from '../routes/capabilities-routes.js';
import type { ApiState } from './api-state.js';

export interface ApiDeps extends ListingRouteDeps {
  logger: Logger;
  accounts: AccountsClient;
  principals: PrincipalCache;
  rateLimiter: FixedWindowLimiter;
  history: HistoryWriter;
  capabilities: Capabilities;
}

/**
 * The public API. Order matters: the request id first (every answer carries it), then the access
 * log and the history entry (both see the final status), then the error handler that gives every
 * failure the contract's shape, then the routes.
 */
export function createApp(deps: ApiDeps): Koa<ApiState> {
  const app = new Koa<ApiState>({ proxy: true });
  app.silent = true;
  app.on('error', (error: unknown) => deps.logger.warn({ err: error }, 'connection error'));

  const guard: RouterMiddleware<ApiState>[] = [
    authenticate(deps.accounts, deps.principals),
    quotaHeaders(),
    enforceRateLimit(deps.rateLimiter),
  ];

  app.use(assignRequestId());
  app.use(logRequests(deps.logger));
  app.use(recordHistory(deps.history));
  app.use(handleErrors(deps.logger));
  const routers = [
    capabilitiesRoutes(deps.capabilities),
    openApiRoutes(API_OPERATIONS),
    accountRoutes(deps.accounts, guard),
    listingRoutes(deps, guard),
  ];
  assertDocumented(routers, API_OPERATIONS);
  for (const router of routers) app.use(router.routes());
  return app;
}
