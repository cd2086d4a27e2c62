import { sql } from 'kysely';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { REDACTED_KEYWORD, type HistoryEntry } from '@comps/shared/contract/request-history';
import type { AccountsExecutor, NewRequestHistoryRow } from '../db/database.js';

/** Columns an entry written again may change: what happened, when it was tried again. */
const OUTCOME_COLUMNS = ['status', 'code', 'durationMs', 'resultCount', 'charged'] as const;

/**
 * Writes entries; an entry written again under the same request id (a batch retried after a lost
 * answer, a job page tried again after a failure) takes the newer outcome, unless that would
 * turn a charged entry into an uncharged one: a charge, once recorded, stays recorded.
 */
export async function insertHistoryEntries(db: AccountsExecutor, rows: NewRequestHistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('requestHistory')
    .values(rows)
    .onDuplicateKeyUpdate(() =>
      // `charged` last: each assignment sees the columns already assigned before it (MySQL and MariaDB).
      Object.fromEntries(
        OUTCOME_COLUMNS.map((column) => {
          const name = sql.ref(column.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`));
          return [column, sql`IF(VALUES(charged) >= charged, VALUES(${name}), ${name})`];
        }),
      ),
    )
    .execute();
}

export interface HistoryQuery {
  workspaceId: string;
  limit: number;
  /** Only ids strictly below this one (the cursor). */
  beforeRequestId?: string;
  /** Ids at or above this one (the start of `from`, or of the retention window). */
  fromRequestId: string;
  /** Ids strictly below this one (the day after `to`). */
  toRequestIdExclusive?: string;
}

export async function listHistoryEntries(db: AccountsExecutor, query: HistoryQuery): Promise<HistoryEntry[]> {
  let select = db
    .selectFrom('requestHistory')
    .selectAll()
    .where('workspaceId', '=', query.workspaceId)
    .where('requestId', '>=', query.fromRequestId);
  if (query.beforeRequestId) select = select.where('requestId', '<', query.beforeRequestId);
  if (query.toRequestIdExclusive) select = select.where('requestId', '<', query.toRequestIdExclusive);
  const rows = await select.orderBy('requestId', 'desc').limit(query.limit).execute();
  return rows.map((row) => ({
    requestId: row.requestId,
    createdAt: row.createdAt.toISOString(),
    method: row.method,
    path: row.path,
    status: row.status,
    code: row.code as ErrorCode | null,
    charged: row.charged === 1 ? 1 : 0,
    durationMs: row.durationMs,
    marketSite: row.marketSite as MarketSite | null,
    keyword: row.hasKeyword ? REDACTED_KEYWORD : null,
    resultCount: row.resultCount,
    jobId: row.jobId,
    apiKeyPrefix: row.apiKeyPrefix,
  }));
}

export async function deleteHistoryBefore(db: AccountsExecutor, cutoff: Date, batchSize: number): Promise<number> {
  const result = await db.deleteFrom('requestHistory').where('createdAt', '<', cutoff).limit(batchSize).executeTakeFirst();
  return Number(result.numDeletedRows);
}
