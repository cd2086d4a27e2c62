import type { JobsDb } from '../db/database.js';
import { deleteEventsBefore } from './event-repository.js';
import { deleteInBatches } from '@comps/shared/db/delete-in-batches';

/** Events are kept this long (the webhook issue's delivery log reads them within it). */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

/** Deletes events past retention, in batches; returns how many. */
export async function purgeEvents(db: JobsDb, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_MS);
  return deleteInBatches((limit) => deleteEventsBefore(db, cutoff, limit));
}
