import type { Generated, Selectable } from 'kysely';
import type { JobResultType, JobStatus, JobStopReason } from '@comps/shared/contract/job';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { Kysely, Transaction } from 'kysely';

/** The jobs service's tables (its own migrations, in ./migrations). Names camelCase here, snake_case in MySQL. */
export interface JobsTable {
  id: string;
  workspaceId: string;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
  status: JobStatus;
  stopReason: JobStopReason | null;
  keyword: string;
  marketSite: MarketSite;
  maxPages: number;
  count: number;
  resultType: JobResultType;
  pagesFetched: Generated<number>;
  pagesCharged: Generated<number>;
  itemsCollected: Generated<number>;
  errorCode: string | null;
  errorMessage: string | null;
  idempotencyKeyHash: string | null;
  requestFingerprint: string;
  activeWorkspaceId: string | null;
  cancelRequested: Generated<number>;
  nextPage: Generated<number>;
  attempts: Generated<number>;
  nextRunAt: Date;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
}

export interface JobPagesTable {
  jobId: string;
  page: number;
  requestId: string;
}

export interface JobItemsTable {
  jobId: string;
  itemId: string;
  page: number;
  position: number;
  /** The listing item as the contract shapes it, JSON. */
  item: string;
}

export interface JobsDatabase {
  jobs: JobsTable;
  jobPages: JobPagesTable;
  jobItems: JobItemsTable;
}

export type JobsDb = Kysely<JobsDatabase>;
export type JobsExecutor = JobsDb | Transaction<JobsDatabase>;
export type JobRow = Selectable<JobsTable>;

