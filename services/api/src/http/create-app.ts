import Koa from 'koa';
import { type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { type JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import type { Capabilities } from '@comps/shared/contract/capabilities';
import { assignRequestId } from '@comps/shared/http/assign-request-id';
import { handleErrors } from '@comps/shared/http/handle-errors';
import { logRequests } from '@comps/shared/http/log-requests';
import { rejectUnservedMethods } from '@comps/shared/http/reject-unserved-methods';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { Meter } from '@comps/shared/metering/meter';
import type { SettlementOutbox } from '@comps/shared/metering/settlement-outbox';
import type { InternalClientOptions } from '@comps/shared/internal/internal-client';
import { bulkSearchRoutes } from '../bulk/bulk-search-routes.js';
import { jobRoutes } from '../jobs/job-routes.js';
import { listingRoutes } from '../listings/listing-routes.js';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import { API_OPERATIONS } from '../openapi/api-operations.js';
import { assertDocumented, openApiRoutes } from '../openapi/openapi-routes.js';
import { accountRoutes } from '../routes/account-routes.js';
import { capabilitiesRoutes } from '../routes/capabilities-routes.js';
import type { AuthenticatedRouteDeps } from './authenticated-route.js';

export interface ApiDeps {
  logger: Logger;
  route: AuthenticatedRouteDeps;
  accounts: AccountsClient;
  meter: Meter;
  settlements: SettlementOutbox;
  idempotency: IdempotencyStore;
  capabilities: Capabilities;
  jobs: JobsClient;
  jobsHttp: InternalClientOptions;
}

/**
 * The public API. Order matters: the request id first (every answer carries it), then the access
 * log (it sees the final status), then the error handler that gives every failure the contract's
 * shape (authenticated routes answer their own, see authenticatedRoute), then the method check and
 * the routes.
 */
export function createApp(deps: ApiDeps): Koa {
  // Caddy replaces X-Forwarded-For with the address it saw; only that last entry is trusted.
  const app = new Koa({ proxy: true, maxIpsCount: 1 });
  app.silent = true;
  app.on('error', (error: unknown) => deps.logger.warn({ err: error }, 'connection error'));

  app.use(assignRequestId());
  app.use(logRequests(deps.logger));
  app.use(handleErrors(deps.logger));
  const routers = [
    capabilitiesRoutes(deps.capabilities),
    openApiRoutes(API_OPERATIONS),
    accountRoutes({ route: deps.route, accounts: deps.accounts, settlements: deps.settlements }),
    listingRoutes({ route: deps.route, meter: deps.meter, idempotency: deps.idempotency }),
    jobRoutes({ route: deps.route, meter: deps.meter, jobs: deps.jobs, jobsHttp: deps.jobsHttp }),
    bulkSearchRoutes({ route: deps.route, meter: deps.meter, rateLimiter: deps.route.rateLimiter }),
  ];
  assertDocumented(routers, API_OPERATIONS);
  app.use(rejectUnservedMethods(routers));
  for (const router of routers) app.use(router.routes());
  return app;
}
