import type { Kysely } from 'kysely';

/** One job per workspace and Idempotency-Key. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_idempotency').unique().on('jobs').columns(['workspace_id', 'idempotency_key_hash']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_idempotency').on('jobs').execute();
}
