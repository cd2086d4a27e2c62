import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('usage_reservations_state_expires_idx')
    .on('usage_reservations')
    .columns(['state', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('usage_reservations_state_expires_idx').on('usage_reservations').execute();
}
