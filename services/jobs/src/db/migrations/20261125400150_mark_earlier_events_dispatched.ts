import { sql, type Kysely } from 'kysely';

/**
 * The events written before webhooks existed count as dispatched: an endpoint registered after the
 * upgrade must not receive a month of old job endings.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`UPDATE events SET dispatched_at = created_at WHERE dispatched_at IS NULL`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to undo: the column itself goes with the migration that added it.
}
