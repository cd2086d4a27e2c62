import type { Kysely } from 'kysely';

/** The keys made since a moment: what each api reads every few seconds to learn of new keys. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('api_keys_created').on('api_keys').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_keys_created').on('api_keys').execute();
}
