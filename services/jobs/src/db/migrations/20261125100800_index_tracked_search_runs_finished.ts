import type { Kysely } from 'kysely';

/** Runs past their 30 days, for the purge. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tracked_search_runs_finished').on('tracked_search_runs').columns(['finished_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tracked_search_runs_finished').on('tracked_search_runs').execute();
}
