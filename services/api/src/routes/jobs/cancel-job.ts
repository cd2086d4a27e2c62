import type { z } from 'zod';
import { jobRecordSchema } from '@comps/shared/contract/job';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { JOB_CANCEL_EXAMPLE } from '../examples.js';
import { JOB_PATH } from './job-path.js';

/** `DELETE /v1/scrape/max/{jobId}`: a queued job ends at once, a running one after its page in flight. */
export function cancelJobRoute(deps: { jobs: JobsClient }) {
  return defineRoute<undefined, z.output<typeof JOB_PATH.schema>>({
    method: 'DELETE',
    path: '/v1/scrape/max/{jobId}',
    operationId: 'cancelJob',
    summary: 'Cancel a job',
    description: 'A queued job ends at once; a running one after its page in flight, which is charged if it succeeds.',
    tag: 'Jobs',
    params: JOB_PATH,
    errors: ['job_not_found', 'job_finished'],
    success: { status: 200, schema: jobRecordSchema, description: 'The job' },
    example: JOB_CANCEL_EXAMPLE,
    handle: async (request) => {
      const { jobId } = request.params;
      const job = await deps.jobs.jobs.cancel.mutate({ workspaceId: request.principal.workspaceId, jobId });
      return { kind: 'json', status: 200, body: job, headers: NO_STORE, jobId };
    },
  });
}
