import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_reservations')
    .addColumn('request_id', 'varchar(40)', (col) => col.primaryKey())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('period_start', 'date', (col) => col.notNull())
    .addColumn('state', 'varchar(16)', (col) => col.notNull())
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn('expires_at', sql`datetime(3)`, (col) => col.notNull())
    .addColumn('settled_at', sql`datetime(3)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('usage_reservations').execute();
}
