import type { Kysely } from 'kysely';

/** Deliveries past retention, oldest first . */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').columns(['created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_created').on('webhook_deliveries').execute();
}
