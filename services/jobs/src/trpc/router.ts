import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { assertImplements } from '@comps/shared/internal/procedure-contract';
import { cancelJob } from './procedures/cancel-job.js';
import { createJob } from './procedures/create-job.js';
import { getJob } from './procedures/get-job.js';
import { listJobs } from './procedures/list-jobs.js';
import { router } from './trpc.js';

/** The procedures of `jobsContract` (shared/src/internal/jobs), which the api and the dashboard call. */
export const jobsRouter = router({
  jobs: router({ create: createJob, get: getJob, list: listJobs, cancel: cancelJob }),
});

assertImplements(jobsRouter, jobsContract, 'jobs');
