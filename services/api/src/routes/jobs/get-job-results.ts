import type { z } from 'zod';
import { jobRecordSchema, jobResultsQuerySchema } from '@comps/shared/contract/job';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { JOB_RESULTS_EXAMPLE } from '../examples.js';
import { JOB_PATH } from './job-path.js';

/** `GET /v1/scrape/max/results/{jobId}`: the job and a window of its items, in every state until it expires. */
export function getJobResultsRoute(deps: { jobs: JobsClient }) {
  return defineRoute<z.output<typeof jobResultsQuerySchema>, z.output<typeof JOB_PATH.schema>>({
    method: 'GET',
    path: '/v1/scrape/max/results/{jobId}',
    operationId: 'getJobResults',
    summary: 'Job status and the items collected so far',
    description: 'In every state, until `expiresAt` (24 hours after the job ended). Jobs with `resultType: download` return `items: []`: read them through the CSV.',
    tag: 'Jobs',
    params: JOB_PATH,
    query: { schema: jobResultsQuerySchema, fields: jobResultsQuerySchema, message: 'Invalid query parameters' },
    errors: ['job_not_found'],
    success: { status: 200, schema: jobRecordSchema, description: 'The job and a page of its items' },
    example: JOB_RESULTS_EXAMPLE,
    handle: async (request) => {
      const { jobId } = request.params;
      const job = await deps.jobs.jobs.get.query({ workspaceId: request.principal.workspaceId, jobId, ...request.query });
      return { kind: 'json', status: 200, body: job, headers: NO_STORE, resultCount: job.items.length, jobId };
    },
  });
}
