import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('name', 'varchar(64)', (col) => col.notNull())
    .addColumn('monthly_quota', 'integer', (col) => col.notNull().unsigned())
    .addColumn('rate_limit_requests', 'integer', (col) => col.notNull().unsigned())
    .addColumn('rate_limit_window_seconds', 'integer', (col) => col.notNull().unsigned())
    .addColumn('concurrency', 'integer', (col) => col.notNull().unsigned())
    .addColumn('active_jobs', 'integer', (col) => col.notNull().unsigned())
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('plans').execute();
}
