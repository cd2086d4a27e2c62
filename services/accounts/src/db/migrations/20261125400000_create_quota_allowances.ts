import { sql, type Kysely } from 'kysely';

/**
 * A quota allowance: units a workspace's metering takes in a block (one lease instead of one
 * reservation per request), held on the month's counter as `reserved` until each is charged by its
 * request id, returned unused, or freed when the lease runs out. `units` is every unit granted under
 * the id (a block can be topped up), `charged` and `returned` how many of them went each way; the
 * rest are held.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('quota_allowances')
    .addColumn('id', 'varchar(40)', (col) => col.primaryKey())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('period_start', 'date', (col) => col.notNull())
    .addColumn('units', 'integer', (col) => col.notNull().unsigned())
    .addColumn('charged', 'integer', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('returned', 'integer', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('state', 'varchar(16)', (col) => col.notNull())
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn('expires_at', sql`datetime(3)`, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('quota_allowances').execute();
}
