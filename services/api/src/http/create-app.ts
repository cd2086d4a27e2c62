import Koa from 'koa';
import { Router } from '@koa/router';
import type { Capabilities } from '@comps/shared/contract/capabilities';
import type { BaseState } from '@comps/shared/http/app-state';
import { assignRequestId } from '@comps/shared/http/assign-request-id';
import { handleErrors } from '@comps/shared/http/handle-errors';
import { logRequests } from '@comps/shared/http/log-requests';
import { methodsServedOn, rejectUnservedMethods } from '@comps/shared/http/reject-unserved-methods';
import type { AllowedMethods } from '@comps/shared/runtime/client-error';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { InternalClientOptions } from '@comps/shared/internal/internal-client';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import type { QuotaAllowances } from '@comps/shared/metering/quota-allowances';
import type { SettlementOutbox } from '@comps/shared/metering/settlement-outbox';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import { getUsageRoute } from '../routes/account/get-usage.js';
import { listRequestsRoute } from '../routes/account/list-requests.js';
import { bulkSearchRoute } from '../routes/bulk/bulk-search.js';
import type { PagesAhead } from '../routes/bulk/run-bulk-search.js';
import { cancelJobRoute } from '../routes/jobs/cancel-job.js';
import { createJobRoute } from '../routes/jobs/create-job.js';
import { downloadJobCsvRoute } from '../routes/jobs/download-job-csv.js';
import { getJobResultsRoute } from '../routes/jobs/get-job-results.js';
import { listJobsRoute } from '../routes/jobs/list-jobs.js';
import { browseCategoryRoute } from '../routes/listings/browse-category.js';
import { getItemRoute } from '../routes/listings/get-item.js';
import { searchListingsRoutes } from '../routes/listings/search-listings.js';
import { sellThroughRoute } from '../routes/listings/sell-through.js';
import { getCapabilitiesRoute } from '../routes/service/get-capabilities.js';
import { getOpenApiDocumentRoute } from '../routes/service/get-openapi-document.js';
import { createTrackedSearchRoute } from '../routes/tracked-searches/create-tracked-search.js';
import { deleteTrackedSearchRoute } from '../routes/tracked-searches/delete-tracked-search.js';
import { downloadSalesCsvRoute } from '../routes/tracked-searches/download-sales-csv.js';
import { getArchiveStatsRoute } from '../routes/tracked-searches/get-archive-stats.js';
import { getTrackedSearchRoute } from '../routes/tracked-searches/get-tracked-search.js';
import { listRunsRoute } from '../routes/tracked-searches/list-runs.js';
import { listSalesRoute } from '../routes/tracked-searches/list-sales.js';
import { listTrackedSearchesRoute } from '../routes/tracked-searches/list-tracked-searches.js';
import { startRunRoute } from '../routes/tracked-searches/start-run.js';
import { updateTrackedSearchRoute } from '../routes/tracked-searches/update-tracked-search.js';
import { createWebhookRoute } from '../routes/webhooks/create-webhook.js';
import { deleteWebhookRoute } from '../routes/webhooks/delete-webhook.js';
import { getWebhookRoute } from '../routes/webhooks/get-webhook.js';
import { listDeliveriesRoute } from '../routes/webhooks/list-deliveries.js';
import { listWebhooksRoute } from '../routes/webhooks/list-webhooks.js';
import { retryDeliveryRoute } from '../routes/webhooks/retry-delivery.js';
import { rotateWebhookSecretRoute } from '../routes/webhooks/rotate-webhook-secret.js';
import { testWebhookRoute } from '../routes/webhooks/test-webhook.js';
import { updateWebhookRoute } from '../routes/webhooks/update-webhook.js';
import { routerPath, type RouteDefinition } from './route-definition.js';
import { serveRoute, type ServeDeps } from './serve-route.js';

export interface ApiDeps extends ServeDeps {
  accounts: AccountsClient;
  settlements: SettlementOutbox;
  /** The workspaces' quota allowances, whose idle units a usage read counts as remaining (absent when turned off). */
  allowances?: QuotaAllowances | undefined;
  idempotency: IdempotencyStore;
  capabilities: Capabilities;
  jobs: JobsClient;
  /** Where job and sales CSVs stream from (the jobs service's internal port). */
  jobsHttp: InternalClientOptions;
  /** Comments on a bulk search's stream while nothing else goes out (tests shorten it). */
  bulkKeepAliveMs?: number;
  /** The threads search pages are read in, told of a bulk search's pages ahead (absent when pages are read on the main thread). */
  parseThreads?: PagesAhead | undefined;
}

/** Every public route, each defined with its documentation (the OpenAPI document is made from these). */
export function apiRoutes(deps: ApiDeps): RouteDefinition[] {
  const routes: RouteDefinition[] = [
    ...searchListingsRoutes(deps),
    browseCategoryRoute(deps),
    getItemRoute(),
    sellThroughRoute({ rateLimiter: deps.rateLimiter }),
    getCapabilitiesRoute(deps.capabilities),
    getUsageRoute(deps),
    listRequestsRoute(deps),
    createJobRoute(deps),
    listJobsRoute(deps),
    getJobResultsRoute(deps),
    cancelJobRoute(deps),
    downloadJobCsvRoute(deps),
    createTrackedSearchRoute(deps),
    listTrackedSearchesRoute(deps),
    getTrackedSearchRoute(deps),
    updateTrackedSearchRoute(deps),
    deleteTrackedSearchRoute(deps),
    startRunRoute(deps),
    listRunsRoute(deps),
    listSalesRoute(deps),
    downloadSalesCsvRoute(deps),
    getArchiveStatsRoute(deps),
    createWebhookRoute(deps),
    listWebhooksRoute(deps),
    getWebhookRoute(deps),
    updateWebhookRoute(deps),
    deleteWebhookRoute(deps),
    rotateWebhookSecretRoute(deps),
    testWebhookRoute(deps),
    listDeliveriesRoute(deps),
    retryDeliveryRoute(deps),
    bulkSearchRoute({
      meter: deps.meter,
      rateLimiter: deps.rateLimiter,
      ...(deps.parseThreads ? { parseThreads: deps.parseThreads } : {}),
      ...(deps.bulkKeepAliveMs ? { keepAliveMs: deps.bulkKeepAliveMs } : {}),
    }),
  ];
  return [...routes, getOpenApiDocumentRoute(routes)];
}

/**
 * The public API. Order matters: the request id first (every answer carries it), then the access
 * log (it sees the final status), then the error handler for what no route answers (an unknown
 * path), then the method check (405 before anything runs) and the routes, each served by serveRoute.
 */
export function createApp(deps: ApiDeps): { app: Koa<BaseState>; allowedMethods: AllowedMethods } {
  // Caddy replaces X-Forwarded-For with the address it saw; only that last entry is trusted.
  const app = new Koa<BaseState>({ proxy: true, maxIpsCount: 1 });
  app.silent = true;
  app.on('error', (error: unknown) => deps.logger.warn({ err: error }, 'connection error'));
  const router = new Router<BaseState>();
  for (const route of apiRoutes(deps)) router.register(routerPath(route.path), [route.method], serveRoute(route, deps));
  app.use(assignRequestId());
  app.use(logRequests(deps.logger));
  app.use(handleErrors(deps.logger));
  const allowedMethods = methodsServedOn([router]);
  app.use(rejectUnservedMethods(allowedMethods));
  app.use(router.routes());
  return { app, allowedMethods };
}
