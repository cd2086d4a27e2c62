import type { Kysely } from 'kysely';

/** An operator's override of the plan's tracked searches for one workspace; null: the plan's. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').addColumn('tracked_searches_override', 'integer', (col) => col.unsigned()).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('tracked_searches_override').execute();
}
