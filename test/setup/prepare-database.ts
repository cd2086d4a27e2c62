import { sql } from 'kysely';
import { createRawDb, splitDatabaseUrl } from '@comps/shared/db/create-db';
import { TEST_DATABASE_BASE_URL } from '../helpers/test-env.js';

// Runs once before the test files: drops the base test database and every test file's own
// (`<base>__<file>`), so that each file creates and migrates a fresh one on first use.
const { serverUrl, database } = splitDatabaseUrl(TEST_DATABASE_BASE_URL);
if (!/^[A-Za-z0-9_]*test[A-Za-z0-9_]*$/.test(database)) {
  throw new Error(`refusing to reset ${database}: a test database name must contain "test"`);
}
const server = createRawDb({ url: serverUrl, connectionLimit: 1 });
try {
  const pattern = `${database.replace(/_/g, '\\_')}\\_\\_%`;
  const { rows } = await sql<Record<string, string>>`SHOW DATABASES LIKE ${pattern}`.execute(server);
  const names = [database, ...rows.map((row) => Object.values(row)[0]!)];
  for (const name of names) await sql`DROP DATABASE IF EXISTS ${sql.id(name)}`.execute(server);
  process.stdout.write(`# test databases dropped: ${names.length}\n`);
} finally {
  await server.destroy();
}
