import type { Kysely } from 'kysely';

/** The purge of events past retention, oldest first. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('events_created').on('events').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('events_created').on('events').execute();
}
