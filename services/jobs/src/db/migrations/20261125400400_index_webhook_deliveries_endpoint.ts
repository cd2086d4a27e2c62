import type { Kysely } from 'kysely';

/** An endpoint's delivery log, newest first (ids are time-ordered). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_endpoint').on('webhook_deliveries').execute();
}
