import type { Kysely } from 'kysely';

/** A workspace's endpoints newest first (the list), and a workspace's endpoints for the fan-out of an event (subscribers). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_endpoints_workspace_created_idx')
    .on('webhook_endpoints')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_endpoints_workspace_created_idx').on('webhook_endpoints').execute();
}
