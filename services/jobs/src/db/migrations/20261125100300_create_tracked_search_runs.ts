import { sql, type Kysely } from 'kysely';

/** The runs of tracked searches: one sold search of a few pages each, charged per page. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tracked_search_runs')
    .addColumn('id', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('tracked_search_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('api_key_id', 'varchar(32)')
    .addColumn('api_key_prefix', 'varchar(16)')
    .addColumn('run_trigger', 'varchar(10)', (col) => col.notNull())
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('stop_reason', 'varchar(20)')
    .addColumn('pages_fetched', 'smallint', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('pages_charged', 'smallint', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('new_sales', 'integer', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('next_page', 'smallint', (col) => col.notNull().unsigned().defaultTo(1))
    .addColumn('attempts', 'smallint', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('error_code', 'varchar(40)')
    .addColumn('error_message', 'varchar(500)')
    // The tracked search while the run runs, null once it ended: a unique index on it keeps the
    // database from ever holding two running runs of one tracked search.
    .addColumn('active_tracked_search_id', 'varchar(32)', (col) => col.unique())
    .addColumn('started_at', sql`datetime(3)`, (col) => col.notNull())
    .addColumn('finished_at', sql`datetime(3)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tracked_search_runs').execute();
}
