import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { JobsExecutor } from '../db/database.js';

/** A stored page whose charge has waited since `since` to be handed to the settlement outbox, with what its history entry says. */
export interface PendingCharge {
  /** A scrape job's page, or a tracked search run's. */
  kind: 'job' | 'run';
  /** The job's or the run's id. */
  ownerId: string;
  page: number;
  requestId: string;
  allowanceId: string | null;
  since: Date;
  workspaceId: string;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
  marketSite: MarketSite;
}

/** Up to `limit` charges of each kind waiting since before `before`, oldest first (then by job or run, and page). */
export async function listPendingCharges(db: JobsExecutor, before: Date, limit: number): Promise<PendingCharge[]> {
  const [jobPages, runPages] = await Promise.all([
    db
      .selectFrom('jobPages')
      .innerJoin('jobs', 'jobs.id', 'jobPages.jobId')
      .select([
        'jobPages.jobId as ownerId',
        'jobPages.page',
        'jobPages.requestId',
        'jobPages.chargeAllowanceId as allowanceId',
        'jobPages.chargePendingSince as since',
        'jobs.workspaceId',
        'jobs.apiKeyId',
        'jobs.apiKeyPrefix',
        'jobs.marketSite',
      ])
      .where('jobPages.chargePendingSince', '<', before)
      .orderBy('jobPages.chargePendingSince')
      .orderBy('jobPages.jobId')
      .orderBy('jobPages.page')
      .limit(limit)
      .execute(),
    db
      .selectFrom('trackedSearchRunPages')
      .innerJoin('trackedSearchRuns', 'trackedSearchRuns.id', 'trackedSearchRunPages.runId')
      .innerJoin('trackedSearches', 'trackedSearches.id', 'trackedSearchRuns.trackedSearchId')
      .select([
        'trackedSearchRunPages.runId as ownerId',
        'trackedSearchRunPages.page',
        'trackedSearchRunPages.requestId',
        'trackedSearchRunPages.chargeAllowanceId as allowanceId',
        'trackedSearchRunPages.chargePendingSince as since',
        'trackedSearchRuns.workspaceId',
        'trackedSearchRuns.apiKeyId',
        'trackedSearchRuns.apiKeyPrefix',
        'trackedSearches.marketSite',
      ])
      .where('trackedSearchRunPages.chargePendingSince', '<', before)
      .orderBy('trackedSearchRunPages.chargePendingSince')
      .orderBy('trackedSearchRunPages.runId')
      .orderBy('trackedSearchRunPages.page')
      .limit(limit)
      .execute(),
  ]);
  return [
    ...jobPages.map((row) => ({ kind: 'job' as const, ...row, since: row.since! })),
    ...runPages.map((row) => ({ kind: 'run' as const, ...row, since: row.since! })),
  ].sort((a, b) => a.since.getTime() - b.since.getTime() || a.ownerId.localeCompare(b.ownerId) || a.page - b.page);
}
