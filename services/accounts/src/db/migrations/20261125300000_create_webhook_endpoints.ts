import { sql, type Kysely } from 'kysely';

/**
 * Webhook endpoints. Their secrets are stored sealed with AES-256-GCM under WEBHOOK_SECRET_KEY
 * (`v1:<iv>:<tag>:<ciphertext>`, the endpoint's id as additional data): a dump of this table alone
 * gives none of them away.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('url', 'varchar(2048)', (col) => col.notNull())
    // Event types, comma-separated.
    .addColumn('events', 'varchar(255)', (col) => col.notNull())
    .addColumn('description', 'varchar(200)')
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('disabled_reason', 'varchar(16)')
    // The first failed attempt since the last success.
    .addColumn('failing_since', sql`datetime(3)`)
    .addColumn('secret', 'varchar(255)', (col) => col.notNull())
    .addColumn('previous_secret', 'varchar(255)')
    .addColumn('previous_secret_expires_at', sql`datetime(3)`)
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull())
    .addColumn('updated_at', sql`datetime(3)`, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_endpoints').execute();
}
