import type { JobsDb } from '../db/database.js';
import { deleteJob, listExpiredJobs } from './job-repository.js';

/** Deletes jobs past retention (24 hours after they ended), with their items and keyword; returns how many. */
export async function purgeExpiredJobs(db: JobsDb, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await listExpiredJobs(db, now, 50);
    for (const jobId of expired) await deleteJob(db, jobId, 2000);
    total += expired.length;
    if (expired.length < 50) return total;
  }
}
