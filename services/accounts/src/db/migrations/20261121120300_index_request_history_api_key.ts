import type { Kysely } from 'kysely';

// "Last used" of each key on the dashboard: the newest request id of a key is one index lookup.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('request_history_api_key_request_idx')
    .on('request_history')
    .columns(['workspace_id', 'api_key_id', 'request_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('request_history_api_key_request_idx').on('request_history').execute();
}
