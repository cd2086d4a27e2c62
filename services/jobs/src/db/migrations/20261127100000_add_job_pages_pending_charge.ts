import { sql, type Kysely } from 'kysely';

/**
 * A stored page's charge until it reaches the settlement outbox: since when it waits (null once
 * handed over) and the allowance whose unit the page took (null when it reserved its own unit).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('job_pages').addColumn('charge_pending_since', sql`datetime(3)`).addColumn('charge_allowance_id', 'varchar(40)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('job_pages').dropColumn('charge_pending_since').dropColumn('charge_allowance_id').execute();
}
