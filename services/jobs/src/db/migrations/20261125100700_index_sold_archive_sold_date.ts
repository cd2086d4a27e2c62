import type { Kysely } from 'kysely';

/**
 * A tracked search's sales by sold date: the sales list (newest first, keyset on date and item),
 * the statistics over a period and the retention purge all read this index alone. It carries the
 * filter columns and the statistics' compact item, so a year of one tracked search is one range of
 * this index, never a lookup per row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('sold_archive_by_date')
    .on('sold_archive')
    .columns(['tracked_search_id', 'sold_date', 'item_id', 'counted', 'condition_group', 'stats_item'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sold_archive_by_date').on('sold_archive').execute();
}
