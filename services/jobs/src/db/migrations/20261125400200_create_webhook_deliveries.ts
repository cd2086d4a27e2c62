import { sql, type Kysely } from 'kysely';

/**
 * Webhook deliveries: one row per event and endpoint (the unique key makes a dispatch that runs
 * again add nothing), with the exact body every attempt sends and what the last attempt gave.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('webhook_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull())
    .addColumn('event_type', 'varchar(40)', (col) => col.notNull())
    // The event delivered; null for a test delivery.
    .addColumn('event_id', 'char(26)')
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('attempts', 'smallint', (col) => col.notNull().unsigned().defaultTo(0))
    .addColumn('next_attempt_at', sql`datetime(3)`)
    .addColumn('last_attempt_at', sql`datetime(3)`)
    .addColumn('last_status_code', 'smallint')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull())
    .addUniqueConstraint('webhook_deliveries_event', ['webhook_id', 'event_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
}
