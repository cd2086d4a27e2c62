import type { Kysely } from 'kysely';

/** The events still to dispatch, oldest first. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('events_dispatch').on('events').columns(['dispatched_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('events_dispatch').on('events').execute();
}
