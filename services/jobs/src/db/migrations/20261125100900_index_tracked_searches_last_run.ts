import type { Kysely } from 'kysely';

/** Whether a run is some tracked search's last (the purge keeps those). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tracked_searches_last_run').on('tracked_searches').columns(['last_run_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tracked_searches_last_run').on('tracked_searches').execute();
}
