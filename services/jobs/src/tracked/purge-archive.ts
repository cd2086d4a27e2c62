import { withTransaction } from '@comps/shared/db/with-transaction';
import type { JobsDb } from '../db/database.js';
import type { TaskHandler } from '../tasks/task-runner.js';
import { archiveFigures, deleteSalesBatch, hasSalesBefore } from './archive-repository.js';
import { deleteRunsBefore } from './run-repository.js';
import { ARCHIVE_DELETION_TASK } from './run-task.js';
import { listTrackedSearchIdsAfter, lockTrackedSearch, setArchiveFigures } from './tracked-search-repository.js';

const DAY_MS = 86_400_000;
const BATCH = 5000;
/** Runs are shown for 30 days (a tracked search's last run is kept whatever its age). */
const RUN_RETENTION_DAYS = 30;

/**
 * Retention of the archive: sales sold more than `retentionDays` ago are deleted, a batch at a time
 * per tracked search (the date index finds them; no long lock), and the tracked search's figures
 * read again; then runs past 30 days. Returns how many sales went.
 */
export async function purgeArchive(db: JobsDb, now: Date, retentionDays: number, signal: AbortSignal): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString().slice(0, 10);
  let deleted = 0;
  for (let afterId: string | null = null; !signal.aborted; ) {
    const ids = await listTrackedSearchIdsAfter(db, afterId, 500);
    for (const id of ids) {
      if (!(await hasSalesBefore(db, id, cutoff))) continue;
      for (let gone = BATCH; gone === BATCH && !signal.aborted; ) {
        gone = await deleteSalesBatch(db, id, cutoff, BATCH);
        deleted += gone;
      }
      // Read and written under the tracked search's lock: a page stored meanwhile adds to the figures after, not before.
      await withTransaction(db, async (trx) => {
        if (await lockTrackedSearch(trx, id)) await setArchiveFigures(trx, id, await archiveFigures(trx, id));
      });
    }
    if (ids.length < 500) break;
    afterId = ids.at(-1)!;
  }
  const runCutoff = new Date(now.getTime() - RUN_RETENTION_DAYS * DAY_MS);
  while (!signal.aborted && (await deleteRunsBefore(db, runCutoff, 1000)) === 1000);
  return deleted;
}

/** The archive of a deleted tracked search, deleted a batch at a time by a task of its own. */
export function archiveDeletionHandler(db: JobsDb): TaskHandler {
  return {
    kind: ARCHIVE_DELETION_TASK,
    run: async (payload, context) => {
      const { trackedSearchId } = payload as { trackedSearchId: string };
      while (!context.signal.aborted) {
        if ((await deleteSalesBatch(db, trackedSearchId, null, BATCH)) < BATCH) return { next: 'done' };
      }
      // Stopping: the rest is deleted when the task runs again.
      return { next: 'later', runAt: new Date() };
    },
  };
}
