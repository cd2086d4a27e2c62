import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('workspace_id', 'varchar(32)', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    // SHA-256 of the key in hex; the key itself is never stored.
    .addColumn('key_hash', 'char(64)', (col) => col.notNull().unique())
    .addColumn('prefix', 'varchar(16)', (col) => col.notNull())
    .addColumn('last_four', 'char(4)', (col) => col.notNull())
    .addColumn('name', 'varchar(100)')
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn('revoked_at', sql`datetime(3)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
