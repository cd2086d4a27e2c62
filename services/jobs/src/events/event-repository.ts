import type { JobsExecutor } from '../db/database.js';

export interface NewEvent {
  id: string;
  type: string;
  workspaceId: string;
  subjectId: string;
  payload: unknown;
  createdAt: Date;
}

export async function insertEvent(db: JobsExecutor, event: NewEvent): Promise<void> {
  await db.insertInto('events').values({ ...event, payload: JSON.stringify(event.payload) }).execute();
}

/** Events before `cutoff`, a batch at a time; returns how many went. */
export async function deleteEventsBefore(db: JobsExecutor, cutoff: Date, batchSize: number): Promise<number> {
  const result = await db.deleteFrom('events').where('createdAt', '<', cutoff).limit(batchSize).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The events about one subject (a job deleted with its keyword takes its events with it), those
 * dispatched to webhooks: one not dispatched yet stays until it is (or until the events' retention).
 */
export async function deleteEventsOf(db: JobsExecutor, subjectId: string): Promise<void> {
  await db.deleteFrom('events').where('subjectId', '=', subjectId).where('dispatchedAt', 'is not', null).execute();
}
