import type { Kysely } from 'kysely';

/** The allowance a charge was taken from (null: the request reserved its own unit), so each allowance's charges can be counted. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('usage_reservations').addColumn('allowance_id', 'varchar(40)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('usage_reservations').dropColumn('allowance_id').execute();
}
