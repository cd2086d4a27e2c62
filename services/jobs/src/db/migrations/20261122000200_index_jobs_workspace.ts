import type { Kysely } from 'kysely';

/** A workspace's jobs, newest first. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_workspace').on('jobs').columns(['workspace_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_workspace').on('jobs').execute();
}
