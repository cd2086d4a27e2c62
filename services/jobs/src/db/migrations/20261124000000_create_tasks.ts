import { sql, type Kysely } from 'kysely';

/**
 * The task runner's one table: work to run once (a scrape job's turns, a webhook delivery) or
 * periodically (purges), claimed with FOR UPDATE SKIP LOCKED by one process at a time under a lease.
 * `task_key` makes a task exist once (`job:<id>`, `periodic:<name>`); `failed_at` marks one given up.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'char(26)', (col) => col.primaryKey())
    .addColumn('kind', 'varchar(40)', (col) => col.notNull())
    .addColumn('task_key', 'varchar(100)', (col) => col.unique())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('run_at', sql`datetime(3)`, (col) => col.notNull())
    .addColumn('attempts', 'smallint', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_expires_at', sql`datetime(3)`)
    .addColumn('last_error', 'varchar(500)')
    .addColumn('failed_at', sql`datetime(3)`)
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tasks').execute();
}
