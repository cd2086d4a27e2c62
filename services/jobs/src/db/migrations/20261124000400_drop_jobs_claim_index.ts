import type { Kysely } from 'kysely';

/** Jobs are claimed through their task now (tasks_claim): the jobs' own claim index goes. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_claim').on('jobs').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'next_run_at']).execute();
}
