import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'char(36)', (col) => col.primaryKey())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('api_key_id', 'varchar(32)')
    .addColumn('api_key_prefix', 'varchar(16)')
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('stop_reason', 'varchar(20)')
    // The search text is kept for the job's life (its caller reads the results) and deleted with it.
    .addColumn('keyword', 'varchar(350)', (col) => col.notNull())
    .addColumn('market_site', 'varchar(20)', (col) => col.notNull())
    .addColumn('max_pages', 'smallint', (col) => col.notNull().unsigned())
    .addColumn('count', 'smallint', (col) => col.notNull().unsigned())
    .addColumn('result_type', 'varchar(10)', (col) => col.notNull())
    .addColumn('pages_fetched', 'integer', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('pages_charged', 'integer', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('items_collected', 'integer', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('error_code', 'varchar(40)')
    .addColumn('error_message', 'varchar(500)')
    .addColumn('idempotency_key_hash', 'char(64)')
    .addColumn('request_fingerprint', 'char(64)', (col) => col.notNull())
    // The workspace while the job is queued or running, null once it ended: a unique index on it
    // keeps the database from ever holding two active jobs of one workspace.
    .addColumn('active_workspace_id', 'varchar(32)')
    .addColumn('cancel_requested', sql`tinyint`, (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('next_page', 'smallint', (col) => col.notNull().unsigned().defaultTo(1))
    .addColumn('attempts', 'smallint', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('next_run_at', sql`datetime(3)`, (col) => col.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_expires_at', sql`datetime(3)`)
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull())
    .addColumn('started_at', sql`datetime(3)`)
    .addColumn('finished_at', sql`datetime(3)`)
    .addColumn('expires_at', sql`datetime(3)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
