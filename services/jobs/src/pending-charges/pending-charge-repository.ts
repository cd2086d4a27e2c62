import type { JobsExecutor } from '../db/database.js';

/** A stored page whose charge has waited since `since` to be handed to the settlement outbox. */
export interface PendingCharge {
  /** A scrape job's page, or a tracked search run's. */
  kind: 'job' | 'run';
  /** The job's or the run's id. */
  ownerId: string;
  page: number;
  requestId: string;
  allowanceId: string | null;
  since: Date;
}

/** Up to `limit` charges of each kind waiting since before `before`, oldest first. */
export async function listPendingCharges(db: JobsExecutor, before: Date, limit: number): Promise<PendingCharge[]> {
  const [jobPages, runPages] = await Promise.all([
    db
      .selectFrom('jobPages')
      .select(['jobId as ownerId', 'page', 'requestId', 'chargeAllowanceId as allowanceId', 'chargePendingSince as since'])
      .where('chargePendingSince', '<', before)
      .orderBy('chargePendingSince')
      .limit(limit)
      .execute(),
    db
      .selectFrom('trackedSearchRunPages')
      .select(['runId as ownerId', 'page', 'requestId', 'chargeAllowanceId as allowanceId', 'chargePendingSince as since'])
      .where('chargePendingSince', '<', before)
      .orderBy('chargePendingSince')
      .limit(limit)
      .execute(),
  ]);
  return [
    ...jobPages.map((row) => ({ kind: 'job' as const, ...row, since: row.since! })),
    ...runPages.map((row) => ({ kind: 'run' as const, ...row, since: row.since! })),
  ].sort((a, b) => a.since.getTime() - b.since.getTime());
}
