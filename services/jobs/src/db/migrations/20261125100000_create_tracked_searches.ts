import { sql, type Kysely } from 'kysely';

/**
 * Tracked searches: a sold search run on a schedule, whose sales are kept in the archive. The
 * archive's size and dates are kept here too (`archive_sales`, `first_sold_date`, `last_sold_date`),
 * updated with each page stored, so that listing a workspace's tracked searches never counts rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tracked_searches')
    .addColumn('id', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull())
    // Who made it: its scheduled runs' history entries name that key.
    .addColumn('api_key_id', 'varchar(32)')
    .addColumn('api_key_prefix', 'varchar(16)')
    .addColumn('name', 'varchar(100)', (col) => col.notNull())
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('paused_reason', 'varchar(200)')
    // The search text is kept for as long as the tracked search exists (its caller asked for that) and deleted with it.
    .addColumn('keyword', 'varchar(350)', (col) => col.notNull())
    .addColumn('market_site', 'varchar(20)', (col) => col.notNull())
    // The rest of the search (category, condition, prices, format, exact match, statsInclude), JSON.
    .addColumn('query', 'text', (col) => col.notNull())
    .addColumn('schedule', 'varchar(10)', (col) => col.notNull())
    .addColumn('max_pages_per_run', sql`tinyint`, (col) => col.notNull().unsigned())
    .addColumn('next_run_at', sql`datetime(3)`)
    .addColumn('blocked_runs', sql`tinyint`, (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('last_run_id', 'varchar(32)')
    .addColumn('archive_sales', 'integer', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('first_sold_date', 'date')
    .addColumn('last_sold_date', 'date')
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tracked_searches').execute();
}
