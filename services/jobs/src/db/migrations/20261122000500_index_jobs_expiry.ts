import type { Kysely } from 'kysely';

/** The retention purge. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_expiry').on('jobs').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_expiry').on('jobs').execute();
}
