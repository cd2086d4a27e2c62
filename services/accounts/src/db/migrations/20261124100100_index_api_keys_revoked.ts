import type { Kysely } from 'kysely';

/** The keys revoked since a moment: what each api reads every few seconds to forget them. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('api_keys_revoked').on('api_keys').column('revoked_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_keys_revoked').on('api_keys').execute();
}
