import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_counters')
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('period_start', 'date', (col) => col.notNull())
    .addColumn('used', 'integer', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('reserved', 'integer', (col) => col.notNull().unsigned().defaultTo(0))
    .addPrimaryKeyConstraint('usage_counters_pk', ['workspace_id', 'period_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('usage_counters').execute();
}
