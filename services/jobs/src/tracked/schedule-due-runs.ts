import { withTransaction } from '@comps/shared/db/with-transaction';
import type { JobsDb } from '../db/database.js';
import { nextRunAfter } from './schedule.js';
import { runningRun, startRun } from './tracked-search-service.js';
import { claimDueTrackedSearches, updateTrackedSearch } from './tracked-search-repository.js';

const BATCH = 100;

/**
 * Starts the runs of the tracked searches that are due, once across any number of jobs processes:
 * each due one is claimed (FOR UPDATE SKIP LOCKED) by one transaction, which starts its run and
 * sets its next run time from now (plus jitter). A stack that was down therefore runs each missed
 * tracked search once, not once per missed slot; one whose run is still going only gets its next
 * time. Returns how many runs it started.
 */
export async function scheduleDueRuns(db: JobsDb, now: Date, random: () => number): Promise<number> {
  let started = 0;
  for (;;) {
    // Counted from what the transaction returns: one retried after a deadlock starts its runs once.
    const batch = await withTransaction(db, async (trx) => {
      const due = await claimDueTrackedSearches(trx, now, BATCH);
      let runs = 0;
      for (const search of due) {
        if (!(await runningRun(trx, search.id, now))) {
          await startRun(trx, search, 'schedule', search, now);
          runs += 1;
        }
        await updateTrackedSearch(trx, search.id, { nextRunAt: nextRunAfter(search.schedule, now, random) });
      }
      return { claimed: due.length, runs };
    });
    started += batch.runs;
    if (batch.claimed < BATCH) return started;
  }
}
