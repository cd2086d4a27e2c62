import { Migrator, sql, type Migration, type MigrationResult } from 'kysely';
import { createRawDb, splitDatabaseUrl } from './create-db.js';

/**
 * A service's own migrations, each by its name (its file's, as the table that records which ran holds it), and that
 * table (one, with its lock table, per service).
 */
export interface MigrationSet {
  migrations: Readonly<Record<string, Migration>>;
  table: string;
}

export interface MigrationReport {
  database: string;
  applied: string[];
}

/** Creates the database if it is missing. Identifiers cannot be bound, so the name is checked first. */
export async function ensureDatabase(url: string): Promise<string> {
  const { serverUrl, database } = splitDatabaseUrl(url);
  if (!/^[A-Za-z0-9_]+$/.test(database)) throw new Error(`unsafe database name: ${database}`);
  const server = createRawDb({ url: serverUrl, connectionLimit: 1 });
  try {
    await sql`CREATE DATABASE IF NOT EXISTS ${sql.id(database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`.execute(server);
  } finally {
    await server.destroy();
  }
  return database;
}

/** Brings a set of tables to its newest migration; safe to run from several processes at once (Kysely locks). */
export async function migrateToLatest(url: string, set: MigrationSet): Promise<MigrationReport> {
  const database = await ensureDatabase(url);
  const db = createRawDb({ url, connectionLimit: 2 });
  try {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => ({ ...set.migrations }) },
      migrationTableName: set.table,
      migrationLockTableName: `${set.table}_lock`,
    });
    const { error, results } = await migrator.migrateToLatest();
    const applied = (results ?? [])
      .filter((result: MigrationResult) => result.status === 'Success')
      .map((result) => result.migrationName);
    if (error) {
      const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    return { database, applied };
  } finally {
    await db.destroy();
  }
}
