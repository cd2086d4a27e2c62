import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { QuotaLedger } from '@comps/shared/metering/quota-ledger';
import type { JobsDb } from './db/database.js';
import { purgeEvents } from './events/purge-events.js';
import { purgeExpiredJobs } from './jobs/purge-expired-jobs.js';
import { settlePendingCharges } from './pending-charges/settle-pending-charges.js';
import type { PeriodicTask } from './tasks/task-runner.js';
import { purgeArchive } from './tracked/purge-archive.js';
import { scheduleDueRuns } from './tracked/schedule-due-runs.js';
import { dispatchEvents } from './webhooks/dispatch-events.js';
import { purgeDeliveries } from './webhooks/purge-deliveries.js';

export interface PeriodicIntervals {
  purgeJobsMs: number;
  releaseReservationsMs: number;
  purgeAccountsMs: number;
  scheduleTrackedSearchesMs: number;
  purgeArchiveMs: number;
  dispatchWebhooksMs: number;
}

export interface PeriodicDeps {
  db: JobsDb;
  accounts: AccountsClient;
  ledger: QuotaLedger;
  /** How long a stored page's charge may wait for its handover before the sweep settles it (the outbox's takeover of a dead process's charges). */
  pendingChargeGraceMs: number;
  logger: Logger;
  random: () => number;
  archiveRetentionDays: number;
  /** Runs or deliveries were made: look for work now. */
  wake: () => void;
  now: () => Date;
}

/**
 * The deployment's periodic work, each run once per period whatever the number of jobs processes
 * (they are tasks): the runs of due tracked searches; jobs, archived sales and old events past retention here; the charges of stored
 * pages a dead process never handed over; accounts' expired reservations and its history, sessions and settled reservations past
 * retention through accounts' own procedures.
 */
export function periodicTasks(deps: PeriodicDeps, intervals: PeriodicIntervals): PeriodicTask[] {
  const { db, accounts, logger } = deps;
  return [
    {
      name: 'dispatch-webhooks',
      intervalMs: intervals.dispatchWebhooksMs,
      run: async (_now, signal) => {
        if ((await dispatchEvents({ db, accounts, now: deps.now }, signal)) > 0) deps.wake();
      },
    },
    {
      name: 'purge-webhook-deliveries',
      intervalMs: intervals.purgeJobsMs,
      run: async (now) => {
        const deleted = await purgeDeliveries(db, now);
        if (deleted > 0) logger.info({ deleted }, 'deleted webhook deliveries past retention');
      },
    },
    {
      name: 'schedule-tracked-searches',
      intervalMs: intervals.scheduleTrackedSearchesMs,
      run: async (now) => {
        const started = await scheduleDueRuns(db, now, deps.random);
        if (started > 0) {
          logger.info({ started }, 'started the runs of tracked searches that were due');
          deps.wake();
        }
      },
    },
    {
      name: 'purge-archive',
      intervalMs: intervals.purgeArchiveMs,
      run: async (now, signal) => {
        const deleted = await purgeArchive(db, now, deps.archiveRetentionDays, signal);
        if (deleted > 0) logger.info({ deleted }, 'deleted archived sales past retention');
      },
    },
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
      name: 'settle-pending-charges',
      intervalMs: intervals.releaseReservationsMs,
      run: async (now, signal) => {
        const { charged, notCharged } = await settlePendingCharges({ db, ledger: deps.ledger, logger }, now, deps.pendingChargeGraceMs, signal);
        if (charged + notCharged > 0) logger.warn({ charged, notCharged }, 'settled the charges of stored pages that a process left before handing them over');
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
