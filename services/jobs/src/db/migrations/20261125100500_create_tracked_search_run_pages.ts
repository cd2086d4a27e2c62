import type { Kysely } from 'kysely';

/**
 * The request id of each page a run fetched, made once: a run resumed by another process fetches a
 * page again under the same id, and the quota ledger charges an id once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tracked_search_run_pages')
    .addColumn('run_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('page', 'smallint', (col) => col.notNull().unsigned())
    .addColumn('request_id', 'char(30)', (col) => col.notNull())
    .addPrimaryKeyConstraint('tracked_search_run_pages_pk', ['run_id', 'page'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tracked_search_run_pages').execute();
}
