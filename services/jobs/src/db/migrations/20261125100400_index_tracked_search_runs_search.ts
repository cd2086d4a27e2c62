import type { Kysely } from 'kysely';

/** A tracked search's runs, newest first. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tracked_search_runs_search').on('tracked_search_runs').columns(['tracked_search_id', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tracked_search_runs_search').on('tracked_search_runs').execute();
}
