import { cancelJob } from './procedures/cancel-job.js';
import { createJob } from './procedures/create-job.js';
import { getJob } from './procedures/get-job.js';
import { listJobs } from './procedures/list-jobs.js';
import { ping } from './procedures/ping.js';
import { router } from './trpc.js';

export const jobsRouter = router({
  jobs: router({ create: createJob, get: getJob, list: listJobs, cancel: cancelJob }),
  health: router({ ping }),
});

export type JobsRouter = typeof jobsRouter;
