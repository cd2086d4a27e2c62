import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { JobsDb } from './db/database.js';
import { purgeEvents } from './events/purge-events.js';
import { purgeExpiredJobs } from './jobs/purge-expired-jobs.js';
import type { PeriodicTask } from './tasks/task-runner.js';

export interface PeriodicIntervals {
  purgeJobsMs: number;
  releaseReservationsMs: number;
  purgeAccountsMs: number;
}

/**
 * The deployment's periodic upkeep, each run once per period whatever the number of jobs processes
 * (they are tasks): jobs past retention and old events here; accounts' expired reservations and its
 * history, sessions and settled reservations past retention through accounts' own procedures.
 */
export function periodicTasks(deps: { db: JobsDb; accounts: AccountsClient; logger: Logger }, intervals: PeriodicIntervals): PeriodicTask[] {
  const { db, accounts, logger } = deps;
  return [
    {
      name: 'purge-expired-jobs',
      intervalMs: intervals.purgeJobsMs,
      run: async (now) => {
        const deleted = await purgeExpiredJobs(db, now);
        if (deleted > 0) logger.info({ deleted }, 'deleted jobs past retention');
      },
    },
    {
      name: 'purge-events',
      intervalMs: intervals.purgeJobsMs,
      run: async (now) => {
        const deleted = await purgeEvents(db, now);
        if (deleted > 0) logger.info({ deleted }, 'deleted events past retention');
      },
    },
    {
      name: 'release-expired-reservations',
      intervalMs: intervals.releaseReservationsMs,
      run: async () => {
        const { released } = await accounts.maintenance.releaseExpiredReservations.mutate();
        if (released > 0) logger.info({ released }, 'released expired quota reservations');
      },
    },
    {
      name: 'purge-accounts',
      intervalMs: intervals.purgeAccountsMs,
      run: async () => {
        await accounts.maintenance.purge.mutate();
      },
    },
  ];
}
