import type { Kysely } from 'kysely';

/** Each page's request id, made at its first attempt: a retried page is reserved and charged under the same id, never twice. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_pages')
    .addColumn('job_id', 'char(36)', (col) => col.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('page', 'smallint', (col) => col.notNull().unsigned())
    .addColumn('request_id', 'varchar(40)', (col) => col.notNull())
    .addPrimaryKeyConstraint('job_pages_pk', ['job_id', 'page'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_pages').execute();
}
