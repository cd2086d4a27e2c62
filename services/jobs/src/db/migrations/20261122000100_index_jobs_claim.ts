import type { Kysely } from 'kysely';

/** The worker's claim: active jobs whose turn has come, oldest turn first. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'next_run_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_claim').on('jobs').execute();
}
