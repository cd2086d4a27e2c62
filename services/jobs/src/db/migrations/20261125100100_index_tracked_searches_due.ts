import type { Kysely } from 'kysely';

/** The scheduler's claim: active tracked searches whose next run is due, oldest first. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tracked_searches_due').on('tracked_searches').columns(['status', 'next_run_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tracked_searches_due').on('tracked_searches').execute();
}
