import { sql, type Kysely } from 'kysely';

/**
 * What happened, written in the transaction that made it happen (a job ended, later a tracked
 * search's run): what webhooks and tracked searches read. Ids are ULIDs: they sort by time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'char(26)', (col) => col.primaryKey())
    .addColumn('type', 'varchar(40)', (col) => col.notNull())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('subject_id', 'varchar(40)', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events').execute();
}
