import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('name', 'varchar(200)', (col) => col.notNull())
    .addColumn('plan_id', 'varchar(32)', (col) => col.notNull().references('plans.id'))
    .addColumn('monthly_quota_override', 'integer', (col) => col.unsigned())
    .addColumn('rate_limit_override', 'integer', (col) => col.unsigned())
    .addColumn('concurrency_override', 'integer', (col) => col.unsigned())
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('workspaces').execute();
}
