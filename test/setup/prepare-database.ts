import { sql } from 'kysely';
import { createRawDb, splitDatabaseUrl } from '@comps/shared/db/create-db';
import { migrateToLatest } from '@comps/shared/db/migrate';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

// Runs once before the test files: a fresh database, migrated to the latest schema.
const { serverUrl, database } = splitDatabaseUrl(TEST_DATABASE_URL);
if (!/^[A-Za-z0-9_]*test[A-Za-z0-9_]*$/.test(database)) {
  throw new Error(`refusing to reset ${database}: a test database name must contain "test"`);
}
const server = createRawDb({ url: serverUrl, connectionLimit: 1 });
try {
  await sql`DROP DATABASE IF EXISTS ${sql.id(database)}`.execute(server);
} finally {
  await server.destroy();
}
const report = await migrateToLatest(TEST_DATABASE_URL);
process.stdout.write(`# test database ${report.database}: ${report.applied.length} migrations\n`);
