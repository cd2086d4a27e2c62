import { sql, type Kysely } from 'kysely';

/** The items a job collected; one row per listing (an item seen again on a later page is not stored again). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_items')
    .addColumn('job_id', 'char(36)', (col) => col.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('item_id', 'varchar(15)', (col) => col.notNull())
    .addColumn('page', 'smallint', (col) => col.notNull().unsigned())
    .addColumn('position', 'smallint', (col) => col.notNull().unsigned())
    .addColumn('item', sql`longtext`, (col) => col.notNull())
    .addPrimaryKeyConstraint('job_items_pk', ['job_id', 'item_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_items').execute();
}
