import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('request_history')
    .addColumn('request_id', 'varchar(40)', (col) => col.primaryKey())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('api_key_id', 'varchar(32)')
    .addColumn('api_key_prefix', 'varchar(16)')
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull())
    .addColumn('method', 'varchar(8)', (col) => col.notNull())
    .addColumn('path', 'varchar(100)', (col) => col.notNull())
    .addColumn('status', 'smallint', (col) => col.notNull().unsigned())
    .addColumn('code', 'varchar(40)')
    .addColumn('charged', sql`tinyint`, (col) => col.notNull().unsigned())
    .addColumn('duration_ms', 'integer', (col) => col.notNull().unsigned())
    .addColumn('market_site', 'varchar(20)')
    // Whether the request had search text; the text itself is never stored.
    .addColumn('has_keyword', sql`tinyint`, (col) => col.notNull().unsigned())
    .addColumn('result_count', 'integer', (col) => col.unsigned())
    .addColumn('job_id', 'char(36)')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('request_history').execute();
}
