import { jobCreateBodySchema, jobPageQuery, jobRecordSchema, type JobCreateBody } from '@comps/shared/contract/job';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import type { Meter } from '@comps/shared/metering/meter';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { JOB_CREATE_EXAMPLE } from '../examples.js';

/** `POST /v1/scrape/max`: a background job of many pages of one search; the jobs service owns it. */
export function createJobRoute(deps: { jobs: JobsClient; meter: Pick<Meter, 'refusalFor'> }) {
  return defineRoute<undefined, undefined, JobCreateBody>({
    method: 'POST',
    path: '/v1/scrape/max',
    operationId: 'createJob',
    summary: 'Start a background search job over many pages',
    description:
      'Answers 202 with the queued job; a worker fetches its pages in turn with other jobs. Each successful page is charged one request; at most `maxPages` pages are fetched. One queued or running job per workspace. A repeat with the same `Idempotency-Key` and body answers 200 with the same job and creates nothing. When unsure whether a submission succeeded, list the jobs (GET /v1/scrape/max) before submitting again.',
    tag: 'Jobs',
    body: { schema: jobCreateBodySchema, fields: jobCreateBodySchema, message: 'Invalid request body' },
    idempotencyKey: true,
    market: 'work',
    errors: ['quota_exhausted', 'active_job_exists'],
    facts: { from: 'body', searchText: 'keyword', site: true },
    success: { status: 202, schema: jobRecordSchema, description: 'The queued job', also: { status: 200, description: 'The job an earlier request with the same Idempotency-Key and body created' } },
    example: JOB_CREATE_EXAMPLE,
    handle: async (request) => {
      // A closed data gate or a site not enabled would refuse every page: one clear answer instead of a job that fails.
      const refusal = deps.meter.refusalFor({ kind: 'search', query: jobPageQuery(request.body, 1) });
      if (refusal) throw refusal;
      const { principal } = request;
      const { created, job } = await deps.jobs.jobs.create.mutate({
        workspaceId: principal.workspaceId,
        apiKeyId: principal.apiKeyId,
        apiKeyPrefix: principal.apiKeyPrefix,
        body: request.body,
        idempotencyKey: request.idempotencyKey,
      });
      return created
        ? { kind: 'json', status: 202, body: job, headers: { ...NO_STORE, Location: job.resultsUrl }, jobId: job.jobId }
        : { kind: 'json', status: 200, body: job, headers: { ...NO_STORE, 'Idempotent-Replayed': 'true' }, jobId: job.jobId };
    },
  });
}
