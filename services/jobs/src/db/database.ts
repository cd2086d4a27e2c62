import type { Generated, Selectable } from 'kysely';
import type { JobResultType, JobStatus, JobStopReason } from '@comps/shared/contract/job';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { Kysely, Transaction } from 'kysely';
import type { ConditionGroup } from '@comps/shared/contract/comps';
import type { DeliveryEventType, DeliveryStatus } from '@comps/shared/contract/webhook';
import type { RunStatus, RunStopReason, RunTrigger, Schedule, TrackedSearchStatus } from '@comps/shared/contract/tracked-search';

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
  /** The reasons its statistics count anyway, comma-separated (`statsInclude`). */
  statsInclude: Generated<string>;
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
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
}

export interface JobPagesTable {
  jobId: string;
  page: number;
  requestId: string;
  /** What the statistics read of each new item the page stored, in order (stats-item-column.ts), `[]` when none was new; null until the page is stored (and for pages stored before the column). */
  statsItems: string | null;
  /** Stored, and its charge not yet handed to the settlement outbox since then (settle-pending-charges.ts); null otherwise. */
  chargePendingSince: Date | null;
  /** The allowance whose unit the page took, while its charge waits; null when it reserved its own. */
  chargeAllowanceId: string | null;
}

export interface JobItemsTable {
  jobId: string;
  itemId: string;
  page: number;
  position: number;
  /** The listing item as the contract shapes it, JSON. */
  item: string;
}

/** Work for the task runner (see tasks/task-runner.ts). */
export interface TasksTable {
  id: string;
  kind: string;
  /** Makes a task exist once: `job:<id>`, `periodic:<name>`. */
  taskKey: string | null;
  /** JSON. */
  payload: string;
  runAt: Date;
  attempts: Generated<number>;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  lastError: string | null;
  /** Set when the task was given up (its retries spent); it stays for operators to read. */
  failedAt: Date | null;
  createdAt: Date;
}

/** What happened, written in the transaction that made it happen (a job ended). */
export interface EventsTable {
  id: string;
  type: string;
  workspaceId: string;
  subjectId: string;
  /** JSON. */
  payload: string;
  createdAt: Date;
  /** When its webhook deliveries were made (null until then). */
  dispatchedAt: Generated<Date | null>;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhookId: string;
  workspaceId: string;
  eventType: DeliveryEventType;
  eventId: string | null;
  /** The exact body every attempt sends. */
  body: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
}

/** Tracked searches (migrations 20261125100000 on). */
export interface TrackedSearchesTable {
  id: string;
  workspaceId: string;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
  name: string;
  status: TrackedSearchStatus;
  pausedReason: string | null;
  keyword: string;
  marketSite: MarketSite;
  /** JSON: the rest of the search (StoredTrackedQuery). */
  query: string;
  schedule: Schedule;
  maxPagesPerRun: number;
  nextRunAt: Date | null;
  blockedRuns: Generated<number>;
  lastRunId: string | null;
  archiveSales: Generated<number>;
  /** `YYYY-MM-DD` (dates are read as strings). */
  firstSoldDate: string | null;
  lastSoldDate: string | null;
  createdAt: Date;
}

export interface TrackedSearchRunsTable {
  id: string;
  trackedSearchId: string;
  workspaceId: string;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
  runTrigger: RunTrigger;
  status: RunStatus;
  stopReason: RunStopReason | null;
  pagesFetched: Generated<number>;
  pagesCharged: Generated<number>;
  newSales: Generated<number>;
  nextPage: Generated<number>;
  attempts: Generated<number>;
  errorCode: string | null;
  errorMessage: string | null;
  activeTrackedSearchId: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

export interface TrackedSearchRunPagesTable {
  runId: string;
  page: number;
  requestId: string;
  /** As JobPagesTable's: stored, and its charge not yet handed over. */
  chargePendingSince: Date | null;
  chargeAllowanceId: string | null;
}

export interface SoldArchiveTable {
  trackedSearchId: string;
  itemId: string;
  workspaceId: string;
  soldDate: string;
  runId: string;
  firstSeenAt: Date;
  counted: number;
  conditionGroup: ConditionGroup | null;
  statsItem: string;
  /** The listing item as the contract shapes it, JSON. */
  item: string;
}

export interface JobsDatabase {
  jobs: JobsTable;
  jobPages: JobPagesTable;
  jobItems: JobItemsTable;
  tasks: TasksTable;
  events: EventsTable;
  trackedSearches: TrackedSearchesTable;
  trackedSearchRuns: TrackedSearchRunsTable;
  trackedSearchRunPages: TrackedSearchRunPagesTable;
  soldArchive: SoldArchiveTable;
  webhookDeliveries: WebhookDeliveriesTable;
}

export type JobsDb = Kysely<JobsDatabase>;
export type JobsExecutor = JobsDb | Transaction<JobsDatabase>;
export type JobRow = Selectable<JobsTable>;
export type TaskRow = Selectable<TasksTable>;
export type TrackedSearchRow = Selectable<TrackedSearchesTable>;
export type RunRow = Selectable<TrackedSearchRunsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type EventRow = Selectable<EventsTable>;

