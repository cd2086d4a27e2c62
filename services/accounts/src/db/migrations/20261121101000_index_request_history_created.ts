import type { Kysely } from 'kysely';

// The retention purge deletes by age.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('request_history_created_idx')
    .on('request_history')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('request_history_created_idx').on('request_history').execute();
}
