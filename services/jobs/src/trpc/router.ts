import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { assertImplements } from '@comps/shared/internal/procedure-contract';
import { cancelJob } from './procedures/cancel-job.js';
import { createJob } from './procedures/create-job.js';
import { exploreSearchProcedure } from './procedures/explore/search.js';
import { exploreSellThroughProcedure } from './procedures/explore/sell-through.js';
import { getJob } from './procedures/get-job.js';
import { getJobPage } from './procedures/get-job-page.js';
import { listJobs } from './procedures/list-jobs.js';
import { createTrackedSearchProcedure } from './procedures/tracked-searches/create-tracked-search.js';
import { listTrackedSearchesProcedure } from './procedures/tracked-searches/list-tracked-searches.js';
import { getTrackedSearchProcedure } from './procedures/tracked-searches/get-tracked-search.js';
import { updateTrackedSearchProcedure } from './procedures/tracked-searches/update-tracked-search.js';
import { deleteTrackedSearchProcedure } from './procedures/tracked-searches/delete-tracked-search.js';
import { runTrackedSearchProcedure } from './procedures/tracked-searches/run-tracked-search.js';
import { listRunsProcedure } from './procedures/tracked-searches/list-runs.js';
import { listSalesProcedure } from './procedures/tracked-searches/list-sales.js';
import { getArchiveStatsProcedure } from './procedures/tracked-searches/get-archive-stats.js';
import { listDeliveriesProcedure } from './procedures/webhooks/list-deliveries.js';
import { retryDeliveryProcedure } from './procedures/webhooks/retry-delivery.js';
import { sendTestDeliveryProcedure } from './procedures/webhooks/send-test-delivery.js';
import { router } from './trpc.js';

/** The procedures of `jobsContract` (shared/src/internal/jobs), which the api and the dashboard call. */
export const jobsRouter = router({
  jobs: router({ create: createJob, get: getJob, page: getJobPage, list: listJobs, cancel: cancelJob }),
  webhooks: router({ deliveries: listDeliveriesProcedure, test: sendTestDeliveryProcedure, retry: retryDeliveryProcedure }),
  explore: router({ search: exploreSearchProcedure, sellThrough: exploreSellThroughProcedure }),
  trackedSearches: router({ create: createTrackedSearchProcedure, list: listTrackedSearchesProcedure, get: getTrackedSearchProcedure, update: updateTrackedSearchProcedure, delete: deleteTrackedSearchProcedure, runNow: runTrackedSearchProcedure, runs: listRunsProcedure, sales: listSalesProcedure, stats: getArchiveStatsProcedure }),
});

assertImplements(jobsRouter, jobsContract, 'jobs');
