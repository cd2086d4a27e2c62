import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sessions')
    // SHA-256 of the session id in hex: the id itself lives only in the browser's cookie.
    .addColumn('id_hash', 'char(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(32)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    // When the session ends unless used again: the earlier of the idle and the absolute expiry.
    .addColumn('expires_at', sql`datetime(3)`, (col) => col.notNull())
    .addColumn('absolute_expires_at', sql`datetime(3)`, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
}
