import type { Kysely } from 'kysely';

/** The charges still waiting, oldest first (the sweep that settles those a dead process left). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('job_pages_pending_charge').on('job_pages').column('charge_pending_since').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('job_pages_pending_charge').on('job_pages').execute();
}
