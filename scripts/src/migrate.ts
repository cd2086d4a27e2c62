import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import { databaseUrlSchema } from '@comps/shared/config/env-fields';
import { migrateAll } from './migrate-all.js';

/** `npm run migrate`: creates the database if needed and applies every pending migration. */
try {
  const config = loadConfig('migrate', z.object({ DATABASE_URL: databaseUrlSchema }), process.env);
  const report = await migrateAll(config.DATABASE_URL);
  process.stdout.write(
    `${JSON.stringify({ database: report.database, applied: report.applied })}\n`,
  );
} catch (error) {
  process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
