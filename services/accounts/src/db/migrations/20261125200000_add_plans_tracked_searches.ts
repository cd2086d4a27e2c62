import type { Kysely } from 'kysely';

/** How many tracked searches a workspace of the plan may keep; the plans' figures follow in their own migration. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').addColumn('tracked_searches', 'integer', (col) => col.notNull().unsigned()).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('tracked_searches').execute();
}
