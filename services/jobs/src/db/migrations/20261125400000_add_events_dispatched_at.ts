import { sql, type Kysely } from 'kysely';

/** When an event was turned into its webhook deliveries (null until then). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('dispatched_at', sql`datetime(3)`).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('dispatched_at').execute();
}
