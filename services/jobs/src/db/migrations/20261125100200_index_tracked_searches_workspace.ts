import type { Kysely } from 'kysely';

/** A workspace's tracked searches, newest first (its list and its plan's count). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tracked_searches_workspace').on('tracked_searches').columns(['workspace_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tracked_searches_workspace').on('tracked_searches').execute();
}
