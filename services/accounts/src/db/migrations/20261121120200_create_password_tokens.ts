import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_tokens')
    // SHA-256 of the set-password link's token in hex: the token itself is only in the link.
    .addColumn('token_hash', 'char(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'varchar(32)', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', sql`datetime(3)`, (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP(3)`))
    .addColumn('expires_at', sql`datetime(3)`, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_tokens').execute();
}
