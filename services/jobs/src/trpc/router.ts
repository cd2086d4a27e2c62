import { cancelJob } from './procedures/cancel-job.js';
import { createJob } from './procedures/create-job.js';
import { getJob } from './procedures/get-job.js';
import { listJobs } from './procedures/list-jobs.js';
import { router } from './trpc.js';

export const jobsRouter = router({
  jobs: router({ create: createJob, get: getJob, list: listJobs, cancel: cancelJob }),
});

export type JobsRouter = typeof jobsRouter;
