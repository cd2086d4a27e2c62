import { sql, type Kysely } from 'kysely';
import { ulid } from 'ulid';

/** Jobs queued or running when the task runner arrived get their task, at their turn, so none is left behind. */
export async function up(db: Kysely<any>): Promise<void> {
  const active = await sql<{ id: string; next_run_at: Date }>`SELECT id, next_run_at FROM jobs WHERE status IN ('queued', 'running')`.execute(db);
  for (const job of active.rows) {
    await sql`INSERT IGNORE INTO tasks (id, kind, task_key, payload, run_at, attempts, created_at)
      VALUES (${ulid()}, 'scrape-job', ${`job:${job.id}`}, ${JSON.stringify({ jobId: job.id })}, ${job.next_run_at}, 0, CURRENT_TIMESTAMP(3))`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM tasks WHERE kind = 'scrape-job'`.execute(db);
}
