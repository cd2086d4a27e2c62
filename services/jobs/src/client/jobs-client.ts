import type { TRPCClient } from '@trpc/client';
import { callInternal, createInternalClient, type InternalClientOptions } from '@comps/shared/trpc/internal-client';
import type { JobsRouter } from '../trpc/router.js';

/** The jobs service as the other services call it: its tRPC router, over its internal port. */
export type JobsClient = TRPCClient<JobsRouter>;

export function createJobsClient(options: InternalClientOptions): JobsClient {
  return createInternalClient<JobsRouter>(options);
}

/** Calls jobs; its AppErrors (job_not_found, active_job_exists with its jobId, …) arrive with their code. */
export function callJobs<T>(call: () => Promise<T>): Promise<T> {
  return callInternal('jobs service', call);
}

export { JOB_WORKSPACE_HEADER, openJobCsv } from '@comps/shared/jobs/job-csv-download';
