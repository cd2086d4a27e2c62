import { LIMITS } from '@comps/shared/contract/limits';
import type { HistoryEntry } from '@comps/shared/contract/request-history';
import { requestIdFloor, requestIdTime } from '@comps/shared/ids';
import { deleteHistoryBefore, insertHistoryEntries, listHistoryEntries } from './history-repository.js';
import type { HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import type { AccountsDb, AccountsExecutor } from '../db/database.js';
import { deleteInBatches } from '@comps/shared/db/delete-in-batches';

const DAY_MS = 86_400_000;

export async function recordHistory(db: AccountsExecutor, records: HistoryRecord[]): Promise<void> {
  await insertHistoryEntries(
    db,
    records.map((record) => ({
      requestId: record.requestId,
      workspaceId: record.workspaceId,
      apiKeyId: record.apiKeyId,
      apiKeyPrefix: record.apiKeyPrefix,
      // The id carries the request's start time; using it keeps id order and time order one.
      createdAt: requestIdTime(record.requestId),
      method: record.method,
      path: record.path,
      status: record.status,
      code: record.code,
      charged: record.charged,
      durationMs: record.durationMs,
      marketSite: record.marketSite,
      hasKeyword: record.hasKeyword ? 1 : 0,
      resultCount: record.resultCount,
      jobId: record.jobId,
    })),
  );
}

export interface HistoryListInput {
  workspaceId: string;
  limit: number;
  beforeRequestId?: string | undefined;
  /** Inclusive UTC calendar dates. */
  from?: string | undefined;
  to?: string | undefined;
}

export interface HistoryListResult {
  entries: HistoryEntry[];
  /** The id to continue below, when more entries may follow. */
  continueBefore: string | null;
}

function retentionStart(now: Date): Date {
  return new Date(now.getTime() - LIMITS.historyRetentionDays * DAY_MS);
}

/**
 * Newest first, within retention, by keyset on the time-ordered request id: each entry once however
 * many arrive meanwhile. `from` and `to` are clamped to the retention window; a range that lies
 * wholly outside it (`to` before the window, `from` after today) is simply empty.
 */
export async function listHistory(db: AccountsDb, input: HistoryListInput, now: Date): Promise<HistoryListResult> {
  const earliest = retentionStart(now);
  const requestedFrom = input.from ? Date.parse(`${input.from}T00:00:00.000Z`) : earliest.getTime();
  const from = Math.max(requestedFrom, earliest.getTime());
  const until = input.to ? Math.min(Date.parse(`${input.to}T00:00:00.000Z`) + DAY_MS, now.getTime() + DAY_MS) : undefined;
  if (until !== undefined && until <= from) return { entries: [], continueBefore: null };
  const rows = await listHistoryEntries(db, {
    workspaceId: input.workspaceId,
    limit: input.limit + 1,
    fromRequestId: requestIdFloor(new Date(from)),
    ...(input.beforeRequestId ? { beforeRequestId: input.beforeRequestId } : {}),
    ...(until !== undefined ? { toRequestIdExclusive: requestIdFloor(new Date(until)) } : {}),
  });
  const entries = rows.slice(0, input.limit);
  const hasMore = rows.length > input.limit;
  return { entries, continueBefore: hasMore ? (entries.at(-1)?.requestId ?? null) : null };
}

/** Deletes entries past retention in batches, so a large purge never holds long locks. */
export async function purgeHistory(db: AccountsDb, now: Date): Promise<number> {
  const cutoff = retentionStart(now);
  return deleteInBatches((limit) => deleteHistoryBefore(db, cutoff, limit));
}
