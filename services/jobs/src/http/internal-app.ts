import { Readable } from 'node:stream';
import Koa from 'koa';
import { Router } from '@koa/router';
import { z } from 'zod';
import { jobIdSchema } from '@comps/shared/contract/job';
import { trackedSearchIdSchema } from '@comps/shared/contract/tracked-search';
import { parseOrThrow } from '@comps/shared/errors/zod-details';
import type { BaseState } from '@comps/shared/http/app-state';
import { assignRequestId } from '@comps/shared/http/assign-request-id';
import { handleErrors } from '@comps/shared/http/handle-errors';
import { healthRoutes } from '@comps/shared/http/health-routes';
import { metricsRoute } from '@comps/shared/http/metrics-route';
import type { MemoryFigures } from '@comps/shared/http/process-metrics';
import type { LayoutWatch } from '@comps/shared/market/layout-watch';
import type { ParseThreadFigures } from '@comps/shared/market/parse-threads';
import { mountTrpc, TRPC_BASE_PATH } from '@comps/shared/http/mount-trpc';
import { requireInternalToken } from '@comps/shared/http/require-internal-token';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import { JOB_WORKSPACE_HEADER } from '@comps/shared/internal/jobs/job-csv-download';
import { jobCsvChunks } from '../csv/job-csv-stream.js';
import type { ExploreDeps } from '../explore/explore-service.js';
import { handoverOf } from '../explore/handover.js';
import { jobForDownload, type JobServiceDeps } from '../jobs/job-service.js';
import { jobsRouter } from '../trpc/router.js';
import { salesCsvChunks } from '../tracked/sales-csv-stream.js';
import { getTrackedSearch, type TrackedSearchDeps } from '../tracked/tracked-search-service.js';
import type { DeliveryServiceDeps } from '../webhooks/delivery-service.js';
import { pingDatabase } from '@comps/shared/db/ping';
import type { IdleCollectionTotals } from '@comps/shared/runtime/idle-collector';

/** The jobs service's only port, internal: health, metrics, tRPC and the CSV stream, for the api and accounts; Caddy never routes here. */
export function createInternalApp(deps: {
  jobs: JobServiceDeps;
  tracked: TrackedSearchDeps;
  deliveries: DeliveryServiceDeps;
  explore: ExploreDeps;
  redis: RedisClient;
  logger: Logger;
  internalToken: string;
  layoutWatch: LayoutWatch;
  memory: () => MemoryFigures;
  idleCollections: () => IdleCollectionTotals | null;
  /** The parse threads' figures (null: the service reads pages on its main thread). */
  parseThreads: () => ParseThreadFigures | null;
}): Koa {
  const app = new Koa<BaseState>();
  app.silent = true;
  app.on('error', (error: unknown) => deps.logger.warn({ err: error }, 'connection error'));
  const health = healthRoutes({
    database: async () => {
      await pingDatabase(deps.jobs.db);
    },
    redis: async () => {
      await deps.redis.ping();
    },
  });
  const guard = requireInternalToken(deps.internalToken);

  const csv = new Router();
  csv.get('/internal/jobs/:jobId/download.csv', async (ctx) => {
    const { jobId, workspaceId } = parseOrThrow(z.object({ jobId: jobIdSchema, workspaceId: z.string().min(1).max(32) }), { jobId: ctx.params.jobId, workspaceId: ctx.get(JOB_WORKSPACE_HEADER) }, 'Invalid job');
    const { job, comps } = await jobForDownload(deps.jobs, workspaceId, jobId);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = Readable.from(jobCsvChunks(deps.jobs.db, job, comps));
  });
  csv.get('/internal/tracked-searches/:trackedSearchId/sales.csv', async (ctx) => {
    const { trackedSearchId, workspaceId } = parseOrThrow(z.object({ trackedSearchId: trackedSearchIdSchema, workspaceId: z.string().min(1).max(32) }), { trackedSearchId: ctx.params.trackedSearchId, workspaceId: ctx.get(JOB_WORKSPACE_HEADER) }, 'Invalid tracked search');
    await getTrackedSearch(deps.tracked, workspaceId, trackedSearchId);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = Readable.from(salesCsvChunks(deps.tracked.db, trackedSearchId));
  });

  app.use(assignRequestId());
  app.use(handleErrors(deps.logger));
  app.use(health.routes());
  app.use(metricsRoute(deps.layoutWatch, deps.memory, deps.idleCollections, deps.parseThreads).routes());
  app.use((ctx, next) => (ctx.path.startsWith(TRPC_BASE_PATH) || ctx.path.startsWith('/internal/') ? guard(ctx, next) : next()));
  app.use(csv.routes());
  app.use(mountTrpc(jobsRouter, ({ res }) => ({ jobs: deps.jobs, tracked: deps.tracked, deliveries: deps.deliveries, explore: deps.explore, handover: handoverOf(res), logger: deps.logger })));
  return app;
}
