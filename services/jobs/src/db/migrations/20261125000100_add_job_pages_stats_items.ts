import { sql, type Kysely } from 'kysely';

/**
 * What the statistics read of each new item a page stored (its price, classification, format and
 * sold date), as one JSON array per page in the order the items were stored: a job's statistics
 * over tens of thousands of items read a hundred rows of this column, not the items. Null for pages
 * that stored nothing, and for those stored before the column (read from their items instead).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE job_pages ADD COLUMN stats_items mediumtext NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE job_pages DROP COLUMN stats_items`.execute(db);
}
