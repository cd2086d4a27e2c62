/** The task kind of a tracked search's run, and of the deletion of a tracked search's archive. */
export const TRACKED_RUN_TASK = 'tracked-search-run';
export const ARCHIVE_DELETION_TASK = 'archive-deletion';

/** A run's task exists once: its key. */
export function runTaskKey(runId: string): string {
  return `run:${runId}`;
}

export function archiveDeletionTaskKey(trackedSearchId: string): string {
  return `archive-deletion:${trackedSearchId}`;
}
