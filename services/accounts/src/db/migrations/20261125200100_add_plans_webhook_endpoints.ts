import type { Kysely } from 'kysely';

/** How many webhook endpoints a workspace of the plan may register; the plans' figures follow in their own migration. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').addColumn('webhook_endpoints', 'integer', (col) => col.notNull().unsigned()).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('webhook_endpoints').execute();
}
