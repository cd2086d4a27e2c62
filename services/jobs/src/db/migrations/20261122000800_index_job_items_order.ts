import type { Kysely } from 'kysely';

/** Items in the order they were collected (results pages and the CSV read in this order). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('job_items_order').on('job_items').columns(['job_id', 'page', 'position']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('job_items_order').on('job_items').execute();
}
