import type { Kysely } from 'kysely';

/** The purge of settled reservations past their month (by age). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('usage_reservations_created').on('usage_reservations').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('usage_reservations_created').on('usage_reservations').execute();
}
