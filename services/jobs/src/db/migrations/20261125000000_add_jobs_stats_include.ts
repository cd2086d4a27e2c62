import { sql, type Kysely } from 'kysely';

/** The reasons a job's statistics count anyway (`statsInclude`), comma-separated; empty for none. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN stats_include varchar(200) NOT NULL DEFAULT ''`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE jobs DROP COLUMN stats_include`.execute(db);
}
