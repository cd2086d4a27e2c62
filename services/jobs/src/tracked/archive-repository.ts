import { sql } from 'kysely';
import type { ConditionGroup } from '@comps/shared/contract/comps';
import type { JobsExecutor } from '../db/database.js';
import type { SalesPosition } from './sales-cursor.js';

export interface NewSale {
  itemId: string;
  soldDate: string;
  counted: boolean;
  conditionGroup: ConditionGroup | null;
  statsItem: string;
  item: string;
}

/**
 * Stores a page's sales that the archive lacks (INSERT IGNORE on the primary key: a sale seen before,
 * or stored already by a run resumed elsewhere, is not stored again); returns the ones it stored.
 */
export async function insertNewSales(db: JobsExecutor, owner: { trackedSearchId: string; workspaceId: string; runId: string; firstSeenAt: Date }, sales: readonly NewSale[]): Promise<NewSale[]> {
  if (sales.length === 0) return [];
  const known = await db
    .selectFrom('soldArchive')
    .select('itemId')
    .where('trackedSearchId', '=', owner.trackedSearchId)
    .where('itemId', 'in', sales.map((sale) => sale.itemId))
    .execute();
  const seen = new Set(known.map((row) => row.itemId));
  const fresh = sales.filter((sale, index) => !seen.has(sale.itemId) && sales.findIndex((other) => other.itemId === sale.itemId) === index);
  if (fresh.length === 0) return [];
  await db
    .insertInto('soldArchive')
    .ignore()
    .values(fresh.map((sale) => ({ ...owner, itemId: sale.itemId, soldDate: sale.soldDate, counted: sale.counted ? 1 : 0, conditionGroup: sale.conditionGroup, statsItem: sale.statsItem, item: sale.item })))
    .execute();
  return fresh;
}

/** Of these items, those a run stored (the page repeated what the run itself saw). */
export async function countSalesOfRun(db: JobsExecutor, trackedSearchId: string, runId: string, itemIds: readonly string[]): Promise<number> {
  if (itemIds.length === 0) return 0;
  const row = await db
    .selectFrom('soldArchive')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('trackedSearchId', '=', trackedSearchId)
    .where('itemId', 'in', itemIds)
    .where('runId', '=', runId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface SalesFilter {
  from?: string | undefined;
  to?: string | undefined;
  condition?: ConditionGroup | undefined;
  counted?: boolean | undefined;
  after?: SalesPosition | undefined;
}

/** A page of sales, newest sold first (then item id, descending), from the date index. */
export async function listSales(db: JobsExecutor, trackedSearchId: string, filter: SalesFilter, limit: number) {
  let query = db.selectFrom('soldArchive').select(['soldDate', 'itemId', 'firstSeenAt', 'item']).where('trackedSearchId', '=', trackedSearchId);
  if (filter.from) query = query.where('soldDate', '>=', filter.from);
  if (filter.to) query = query.where('soldDate', '<=', filter.to);
  if (filter.condition) query = query.where('conditionGroup', '=', filter.condition);
  if (filter.counted !== undefined) query = query.where('counted', '=', filter.counted ? 1 : 0);
  const after = filter.after;
  if (after) {
    query = query.where((eb) => eb.or([eb('soldDate', '<', after.soldDate), eb.and([eb('soldDate', '=', after.soldDate), eb('itemId', '<', after.itemId)])]));
  }
  return query.orderBy('soldDate', 'desc').orderBy('itemId', 'desc').limit(limit).execute();
}

/** What the statistics read of every sale in the period, oldest first: the date index alone answers it. */
export async function listStatsItems(db: JobsExecutor, trackedSearchId: string, range: { from?: string | undefined; to?: string | undefined }): Promise<string[]> {
  let query = db.selectFrom('soldArchive').select('statsItem').where('trackedSearchId', '=', trackedSearchId);
  if (range.from) query = query.where('soldDate', '>=', range.from);
  if (range.to) query = query.where('soldDate', '<=', range.to);
  const rows = await query.orderBy('soldDate').orderBy('itemId').execute();
  return rows.map((row) => row.statsItem);
}

/** Deletes a tracked search's sales sold before `cutoff` (all of them without one), a batch at a time; returns how many went. */
export async function deleteSalesBatch(db: JobsExecutor, trackedSearchId: string, cutoff: string | null, batchSize: number): Promise<number> {
  let query = db.deleteFrom('soldArchive').where('trackedSearchId', '=', trackedSearchId);
  if (cutoff) query = query.where('soldDate', '<', cutoff);
  const result = await query.limit(batchSize).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The archive's figures, read from what it holds (after a purge). */
export async function archiveFigures(db: JobsExecutor, trackedSearchId: string): Promise<{ sales: number; firstSoldDate: string | null; lastSoldDate: string | null }> {
  const row = await db
    .selectFrom('soldArchive')
    .select([sql<number>`count(*)`.as('sales'), sql<string | null>`min(sold_date)`.as('firstSoldDate'), sql<string | null>`max(sold_date)`.as('lastSoldDate')])
    .where('trackedSearchId', '=', trackedSearchId)
    .executeTakeFirstOrThrow();
  return { sales: Number(row.sales), firstSoldDate: row.firstSoldDate, lastSoldDate: row.lastSoldDate };
}

/** Whether the tracked search has sales sold before `cutoff` (the purge skips those that have none). */
export async function hasSalesBefore(db: JobsExecutor, trackedSearchId: string, cutoff: string): Promise<boolean> {
  const row = await db.selectFrom('soldArchive').select('itemId').where('trackedSearchId', '=', trackedSearchId).where('soldDate', '<', cutoff).limit(1).executeTakeFirst();
  return row !== undefined;
}
