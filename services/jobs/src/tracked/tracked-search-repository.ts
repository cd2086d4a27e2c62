import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { JobsExecutor, TrackedSearchesTable, TrackedSearchRow } from '../db/database.js';

export async function insertTrackedSearch(db: JobsExecutor, row: Insertable<TrackedSearchesTable>): Promise<void> {
  await db.insertInto('trackedSearches').values(row).execute();
}

export async function findTrackedSearch(db: JobsExecutor, id: string): Promise<TrackedSearchRow | undefined> {
  return db.selectFrom('trackedSearches').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The tracked search, locked for the rest of the transaction. */
export async function lockTrackedSearch(db: JobsExecutor, id: string): Promise<TrackedSearchRow | undefined> {
  return db.selectFrom('trackedSearches').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function listWorkspaceTrackedSearches(db: JobsExecutor, workspaceId: string): Promise<TrackedSearchRow[]> {
  return db.selectFrom('trackedSearches').selectAll().where('workspaceId', '=', workspaceId).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
}

/** How many tracked searches the workspace has, its rows locked so that two creations cannot both pass the plan's number. */
export async function countWorkspaceTrackedSearchesForUpdate(db: JobsExecutor, workspaceId: string): Promise<number> {
  const rows = await db.selectFrom('trackedSearches').select('id').where('workspaceId', '=', workspaceId).forUpdate().execute();
  return rows.length;
}

export async function updateTrackedSearch(db: JobsExecutor, id: string, changes: Partial<Pick<TrackedSearchRow, 'name' | 'schedule' | 'maxPagesPerRun' | 'status' | 'pausedReason' | 'nextRunAt' | 'blockedRuns' | 'lastRunId'>>): Promise<void> {
  await db.updateTable('trackedSearches').set(changes).where('id', '=', id).execute();
}

/**
 * Active tracked searches whose next run is due, locked (SKIP LOCKED: another process claiming at
 * the same moment takes others, never these), oldest due first.
 */
export async function claimDueTrackedSearches(db: JobsExecutor, now: Date, limit: number): Promise<TrackedSearchRow[]> {
  return db
    .selectFrom('trackedSearches')
    .selectAll()
    .where('status', '=', 'active')
    .where('nextRunAt', '<=', now)
    .orderBy('nextRunAt')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** A page's new sales join the archive's figures. */
export async function addToArchiveFigures(db: JobsExecutor, id: string, added: { sales: number; firstSoldDate: string; lastSoldDate: string }): Promise<void> {
  await db
    .updateTable('trackedSearches')
    .set((eb) => ({
      archiveSales: eb('archiveSales', '+', added.sales),
      firstSoldDate: sql<string>`least(coalesce(first_sold_date, ${added.firstSoldDate}), ${added.firstSoldDate})`,
      lastSoldDate: sql<string>`greatest(coalesce(last_sold_date, ${added.lastSoldDate}), ${added.lastSoldDate})`,
    }))
    .where('id', '=', id)
    .execute();
}

/** After a purge: the archive's figures read again from what is left. */
export async function setArchiveFigures(db: JobsExecutor, id: string, figures: { sales: number; firstSoldDate: string | null; lastSoldDate: string | null }): Promise<void> {
  await db.updateTable('trackedSearches').set({ archiveSales: figures.sales, firstSoldDate: figures.firstSoldDate, lastSoldDate: figures.lastSoldDate }).where('id', '=', id).execute();
}

/** Tracked searches after an id, a batch at a time (the retention purge walks them all). */
export async function listTrackedSearchIdsAfter(db: JobsExecutor, afterId: string | null, limit: number): Promise<string[]> {
  let query = db.selectFrom('trackedSearches').select('id');
  if (afterId) query = query.where('id', '>', afterId);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((row) => row.id);
}

export async function deleteTrackedSearchRow(db: JobsExecutor, id: string): Promise<void> {
  await db.deleteFrom('trackedSearches').where('id', '=', id).execute();
}
