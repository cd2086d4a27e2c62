import type { Kysely } from 'kysely';

/** At most one queued or running job per workspace (ended jobs have null here). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_active_workspace').unique().on('jobs').column('active_workspace_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_active_workspace').on('jobs').execute();
}
