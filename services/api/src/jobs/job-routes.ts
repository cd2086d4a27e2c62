import { Router } from '@koa/router';
import { openJobCsv } from '@comps/shared/internal/jobs/job-csv-download';
import { type JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { z } from 'zod';
import { jobCreateBodySchema, jobIdSchema, jobPageQuery, jobResultsQuerySchema } from '@comps/shared/contract/job';
import { marketSiteSchema } from '@comps/shared/contract/market-sites';
import type { Meter } from '@comps/shared/metering/meter';
import { parseOrThrow } from '@comps/shared/errors/zod-details';
import type { InternalClientOptions } from '@comps/shared/internal/internal-client';
import { authenticatedRoute, type AuthenticatedRouteDeps } from '../http/authenticated-route.js';
import type { ApiRequest, RequestFacts } from '../http/route-result.js';
import { idempotencyKeyOf } from '../idempotency/idempotency-key.js';

export interface JobRouteDeps {
  route: AuthenticatedRouteDeps;
  /** Checks the data gate and the site before a job is accepted (its pages would all be refused). */
  meter: Pick<Meter, 'refusalFor'>;
  jobs: JobsClient;
  /** Where the CSV streams from (the jobs service's internal port). */
  jobsHttp: InternalClientOptions;
}

const NO_STORE = { 'Cache-Control': 'no-store' };
const ABOUT_A_JOB = { describe: () => ({ marketSite: null, hasKeyword: false }) };

/** The job's search text and site, for the history entry of its creation (the text itself is never stored). */
function creationFacts({ body }: Pick<ApiRequest, 'body'>): RequestFacts {
  const fields = (body ?? {}) as { keyword?: unknown; marketSite?: unknown };
  const site = marketSiteSchema.safeParse(fields.marketSite ?? 'market.com');
  return { marketSite: site.success ? site.data : null, hasKeyword: typeof fields.keyword === 'string' && fields.keyword.trim().length > 0 };
}

function jobIdOf(request: ApiRequest): string {
  return parseOrThrow(z.object({ jobId: jobIdSchema }), { jobId: request.params.jobId }, 'Invalid job id').jobId;
}

/** Background search jobs: create, list, poll with partial results, cancel, download as CSV. The jobs service owns them. */
export function jobRoutes(deps: JobRouteDeps): Router {
  const router = new Router();

  router.post(
    '/v1/scrape/max',
    authenticatedRoute(deps.route, { describe: creationFacts, json: true }, async (request) => {
      const body = parseOrThrow(jobCreateBodySchema, request.body, 'Invalid request body');
      const idempotencyKey = idempotencyKeyOf(request);
      const refusal = deps.meter.refusalFor({ kind: 'search', query: jobPageQuery(body, 1) });
      if (refusal) throw refusal;
      const { principal } = request;
      const { created, job } = await deps.jobs.jobs.create.mutate({ workspaceId: principal.workspaceId, apiKeyId: principal.apiKeyId, apiKeyPrefix: principal.apiKeyPrefix, body, idempotencyKey });
      return created
        ? { status: 202, body: job, headers: { ...NO_STORE, Location: job.resultsUrl }, jobId: job.jobId }
        : { status: 200, body: job, headers: { ...NO_STORE, 'Idempotent-Replayed': 'true' }, jobId: job.jobId };
    }),
  );

  router.get(
    '/v1/scrape/max',
    authenticatedRoute(deps.route, ABOUT_A_JOB, async ({ principal }) => {
      const list = await deps.jobs.jobs.list.query({ workspaceId: principal.workspaceId });
      return { status: 200, body: list, headers: NO_STORE };
    }),
  );

  router.get(
    '/v1/scrape/max/results/:jobId',
    authenticatedRoute(deps.route, ABOUT_A_JOB, async (request) => {
      const jobId = jobIdOf(request);
      const page = parseOrThrow(jobResultsQuerySchema, request.query, 'Invalid query parameters');
      const job = await deps.jobs.jobs.get.query({ workspaceId: request.principal.workspaceId, jobId, ...page });
      return { status: 200, body: job, headers: NO_STORE, resultCount: job.items.length, jobId };
    }),
  );

  router.delete(
    '/v1/scrape/max/:jobId',
    authenticatedRoute(deps.route, ABOUT_A_JOB, async (request) => {
      const jobId = jobIdOf(request);
      const job = await deps.jobs.jobs.cancel.mutate({ workspaceId: request.principal.workspaceId, jobId });
      return { status: 200, body: job, headers: NO_STORE, jobId };
    }),
  );

  router.get(
    '/v1/scrape/max/:jobId/download.csv',
    authenticatedRoute(deps.route, ABOUT_A_JOB, async (request) => {
      const jobId = jobIdOf(request);
      const csv = await openJobCsv(deps.jobsHttp, { workspaceId: request.principal.workspaceId, jobId }, request.signal);
      return {
        status: 200,
        body: null,
        stream: { contentType: 'text/csv; charset=utf-8', body: csv },
        headers: { ...NO_STORE, 'Content-Disposition': `attachment; filename="job-${jobId}.csv"` },
        jobId,
      };
    }),
  );

  return router;
}
