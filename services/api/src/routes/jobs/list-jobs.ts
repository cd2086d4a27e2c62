import { jobListSchema } from '@comps/shared/contract/job';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { JOB_LIST_EXAMPLE } from '../examples.js';

/** `GET /v1/scrape/max` (beyond the specification): a caller unsure of a submission checks here before submitting again. */
export function listJobsRoute(deps: { jobs: JobsClient }) {
  return defineRoute({
    method: 'GET',
    path: '/v1/scrape/max',
    operationId: 'listJobs',
    summary: "The workspace's jobs within retention, newest first (beyond the specification)",
    tag: 'Jobs',
    success: { status: 200, schema: jobListSchema, description: 'The jobs, without their items' },
    example: JOB_LIST_EXAMPLE,
    handle: async ({ principal }) => ({ kind: 'json', status: 200, body: await deps.jobs.jobs.list.query({ workspaceId: principal.workspaceId }), headers: NO_STORE }),
  });
}
