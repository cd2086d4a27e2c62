import type { Kysely } from 'kysely';

/** The claim: tasks not given up whose time has come, oldest first. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tasks_claim').on('tasks').columns(['failed_at', 'run_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tasks_claim').on('tasks').execute();
}
