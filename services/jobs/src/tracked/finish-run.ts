import { TRACKED_SEARCH_LIMITS, type RunStopReason } from '@comps/shared/contract/tracked-search';
import { newEventId } from '@comps/shared/ids';
import type { JobsExecutor } from '../db/database.js';
import { insertEvent } from '../events/event-repository.js';
import { deleteTaskByKey } from '../tasks/task-repository.js';
import { endRunRow, lockRun } from './run-repository.js';
import { runTaskKey } from './run-task.js';
import { lockTrackedSearch, updateTrackedSearch } from './tracked-search-repository.js';
import { runOf, trackedSearchOf } from './tracked-search-record.js';

export interface RunEnd {
  status: 'completed' | 'failed';
  stopReason: RunStopReason;
  error?: { code: string; message: string };
}

/** The events a run's end writes (the webhooks deliver them). */
export const RUN_COMPLETED = 'trackedSearch.run.completed';
export const RUN_FAILED = 'trackedSearch.run.failed';

/**
 * Where every run ends, whatever ended it (a stop rule after a stored page, a failure): in the
 * caller's transaction, the run takes its final state, its task goes, the tracked search counts a
 * blocked run (three in a row pause it, with the reason) or resets that count, and an event records
 * the end. False when the run had already ended.
 */
export async function finishRun(trx: JobsExecutor, runId: string, end: RunEnd, at: Date): Promise<boolean> {
  const run = await lockRun(trx, runId);
  if (!run || run.status !== 'running') return false;
  const search = await lockTrackedSearch(trx, run.trackedSearchId);
  await endRunRow(trx, runId, { status: end.status, stopReason: end.stopReason, errorCode: end.error?.code ?? null, errorMessage: end.error?.message.slice(0, 500) ?? null, finishedAt: at });
  await deleteTaskByKey(trx, runTaskKey(runId));
  if (!search) return true;
  const blockedRuns = end.error?.code === 'upstream_blocked' ? search.blockedRuns + 1 : 0;
  const pause = blockedRuns >= TRACKED_SEARCH_LIMITS.blockedRunsToPause && search.status === 'active';
  const changes = {
    blockedRuns,
    ...(pause
      ? { status: 'paused' as const, nextRunAt: null, pausedReason: `Paused after ${blockedRuns} runs in a row were blocked by the marketplace (upstream_blocked); resume it once the deployment's marketplace session works again` }
      : {}),
  };
  await updateTrackedSearch(trx, search.id, changes);
  const ended = { ...run, status: end.status, stopReason: end.stopReason, errorCode: end.error?.code ?? null, errorMessage: end.error?.message ?? null, finishedAt: at, activeTrackedSearchId: null };
  const shown = { ...search, ...changes };
  await insertEvent(trx, {
    id: newEventId(),
    type: end.status === 'completed' ? RUN_COMPLETED : RUN_FAILED,
    workspaceId: run.workspaceId,
    subjectId: search.id,
    payload: { ...trackedSearchOf(shown, ended), run: runOf(ended) },
    createdAt: at,
  });
  return true;
}
