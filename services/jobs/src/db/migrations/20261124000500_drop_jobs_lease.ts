import { sql, type Kysely } from 'kysely';

/** A job's turn, lease and retry time are its task's now: the jobs' own columns for them go. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('next_run_at').dropColumn('lease_owner').dropColumn('lease_expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('next_run_at', sql`datetime(3)`, (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_expires_at', sql`datetime(3)`)
    .execute();
}
