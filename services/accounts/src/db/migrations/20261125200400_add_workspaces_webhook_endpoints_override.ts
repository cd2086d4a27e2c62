import type { Kysely } from 'kysely';

/** An operator's override of the plan's webhook endpoints for one workspace; null: the plan's. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').addColumn('webhook_endpoints_override', 'integer', (col) => col.unsigned()).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('webhook_endpoints_override').execute();
}
