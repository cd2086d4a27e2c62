import type { Router } from '@koa/router';
import { AppError } from '@comps/shared/errors/app-error';
import type { JobSummary } from '@comps/shared/contract/job';
import { LIMITS } from '@comps/shared/contract/limits';
import { queryField } from '../forms.js';
import { frameOf, sendPage, sessionOf } from '../respond.js';
import { requestSignal } from '../request-signal.js';
import { jobPage } from '../views/job-page.js';
import { jobsPage } from '../views/jobs-page.js';
import type { WebDeps } from '../web-deps.js';
import type { WebState } from '../web-state.js';
import { webRouter } from '../web-router.js';

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Items the table of a job page shows at a time. */
const TABLE_PAGE = 100;

/** The workspace's background jobs and their CSVs, from the jobs service over its internal port. */
export function jobRoutes(deps: WebDeps): Router<WebState> {
  const router = webRouter();

  router.get('/dashboard/jobs', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    let jobs: JobSummary[] = [];
    let unavailable: string | null = null;
    try {
      jobs = await deps.jobs.listJobs(workspaceId, requestSignal(ctx));
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'service_unavailable')) throw error;
      deps.logger.warn({ reason: error.message }, 'jobs service unavailable');
      unavailable = 'The jobs service is not answering right now, so your jobs cannot be listed. Try again in a moment.';
      ctx.set('Retry-After', String(error.retryAfter ?? 2));
    }
    sendPage(ctx, jobsPage(frameOf(ctx, deps), { jobs, unavailable }), unavailable ? 503 : 200);
  });

  router.get('/dashboard/jobs/:jobId', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const jobId = String(ctx.params.jobId).toLowerCase();
    if (!JOB_ID.test(jobId)) throw new AppError('not_found', 'No such job');
    const asked = Number(queryField(ctx, 'offset'));
    const offset = Number.isInteger(asked) && asked > 0 ? Math.min(asked - (asked % TABLE_PAGE), LIMITS.jobItemsPage.maxOffset) : 0;
    const signal = requestSignal(ctx);
    // Another workspace's job is not found, as one that does not exist (the jobs service decides by workspace).
    const notFound = (error: unknown) => {
      throw error instanceof AppError && error.code === 'job_not_found' ? new AppError('not_found', 'No such job') : error;
    };
    // The charts draw every counted item (compact, from the job's statistics), the table a page of items: one read.
    const { job, sales } = await deps.jobs.client.jobs.page.query({ workspaceId, jobId, offset, limit: TABLE_PAGE }, { signal }).catch(notFound);
    sendPage(ctx, jobPage(frameOf(ctx, deps), { job, counted: sales, table: { items: job.items, offset, pageSize: TABLE_PAGE } }));
  });

  router.get('/dashboard/jobs/:jobId/download.csv', async (ctx) => {
    const { workspaceId } = sessionOf(ctx);
    const jobId = String(ctx.params.jobId).toLowerCase();
    // Another workspace's job is not found, as one that does not exist (the jobs service decides by workspace).
    const csv = JOB_ID.test(jobId) ? await deps.jobs.openCsv(workspaceId, jobId, requestSignal(ctx)) : null;
    if (!csv) throw new AppError('not_found', 'No such job');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="job-${jobId}.csv"`);
    ctx.body = csv;
  });

  return router;
}
