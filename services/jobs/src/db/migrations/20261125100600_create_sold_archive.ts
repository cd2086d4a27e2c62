import { sql, type Kysely } from 'kysely';

/**
 * The sold archive: one row per tracked search and item, the first time a run saw it. The primary
 * key makes a sale stored twice impossible (a page stored again after a resumed run inserts
 * nothing). `stats_item` is what the statistics read of the sale (stats-item-column.ts), ASCII and
 * short, so that an index can carry it (see the next migration). `counted` and `condition_group`
 * are the sale's own classification, for the sales filters.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sold_archive')
    .addColumn('tracked_search_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('item_id', 'varchar(15)', (col) => col.notNull())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('sold_date', 'date', (col) => col.notNull())
    .addColumn('run_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('first_seen_at', sql`datetime(3)`, (col) => col.notNull())
    .addColumn('counted', sql`tinyint`, (col) => col.notNull().unsigned())
    .addColumn('condition_group', 'varchar(12)')
    .addColumn('stats_item', sql`varchar(300) character set ascii collate ascii_bin`, (col) => col.notNull())
    .addColumn('item', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('sold_archive_pk', ['tracked_search_id', 'item_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sold_archive').execute();
}
