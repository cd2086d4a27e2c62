import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateAll } from '@comps/scripts/migrate-all';

/**
 * Where the tests' databases live: `TEST_DATABASE_URL` names the base one, and each test file gets
 * a database of its own beside it (`<base>__<file>`), created and migrated on first use. The `before`
 * step drops them all, so every run starts fresh. A database per file, not one shared: every stack
 * runs a jobs worker, and a worker claims any queued job in its database (as it must in production),
 * so two files on one database would run each other's jobs against their own simulators.
 */
export const TEST_DATABASE_BASE_URL = process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/comps_test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const CADDY_BIN = process.env.CADDY_BIN ?? 'caddy';

const TEST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `<base>__<test file>`, within MySQL's 64 characters (a hash of the file keeps a shortened name unique). */
function databaseUrlOf(testFile: string | undefined): string {
  if (!testFile?.endsWith('.test.ts')) return TEST_DATABASE_BASE_URL;
  const relative = path.relative(TEST_DIR, path.resolve(testFile)).replace(/\.test\.ts$/, '');
  const url = new URL(TEST_DATABASE_BASE_URL);
  const base = decodeURIComponent(url.pathname.replace(/^\//, ''));
  let name = `${base}__${relative.replace(/[^A-Za-z0-9]+/g, '_')}`;
  if (name.length > 64) name = `${name.slice(0, 55)}_${createHash('sha256').update(relative).digest('hex').slice(0, 8)}`;
  url.pathname = `/${name}`;
  return url.toString();
}

/** This test file's own database. */
export const TEST_DATABASE_URL = databaseUrlOf(process.argv[1]);

let migrated: Promise<unknown> | undefined;

/** Creates and migrates this file's database once per process; stacks and in-process tests await it first. */
export function prepareTestDatabase(): Promise<unknown> {
  migrated ??= migrateAll(TEST_DATABASE_URL);
  return migrated;
}
