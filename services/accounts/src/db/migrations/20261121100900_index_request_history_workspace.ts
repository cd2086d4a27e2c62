import type { Kysely } from 'kysely';

// Keyset pagination walks a workspace's history by request id (which sorts by time).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('request_history_workspace_request_idx')
    .on('request_history')
    .columns(['workspace_id', 'request_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('request_history_workspace_request_idx').on('request_history').execute();
}
