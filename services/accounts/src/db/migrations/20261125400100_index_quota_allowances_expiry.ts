import type { Kysely } from 'kysely';

/** The allowances whose lease ran out, for the sweep and for a refused reservation of their workspace. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('quota_allowances_state_expires_idx').on('quota_allowances').columns(['state', 'expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('quota_allowances_state_expires_idx').on('quota_allowances').execute();
}
