import { sql, type Kysely } from 'kysely';

/** Readiness of a database: it answers a query. */
export async function pingDatabase(db: Kysely<any>): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
