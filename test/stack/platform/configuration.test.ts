import t from 'tap';
import { execFile } from 'node:child_process';
import { serviceEntry, type ServiceName } from '@comps/scripts/stack/launch-stack';
import { withoutTapHooks } from '../../helpers/without-tap-hooks.js';

/**
 * Runs a service to its exit. A service refusing its configuration exits within about a second of CPU (its
 * modules loaded); the timeout only catches a hang, so it leaves room for a machine loaded by the other
 * test files (10 s was once not enough). Killed at the timeout, the error has a signal and no code: -1.
 */
function runService(service: ServiceName, env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(...withoutTapHooks(process.execPath, [serviceEntry(service)]), { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr });
    });
  });
}

t.test('the api refuses to start on bad configuration and names every bad variable', async (t) => {
  const result = await runService('api', {
    API_PORT: 'eighty',
    REDIS_URL: 'http://localhost',
    DATA_GATE_SOLD: 'maybe',
    ENABLED_SITES: 'market.com,market.xx',
    AUTH_CACHE_TTL_MS: '10000',
    API_IDLE_GC_MS: '-1',
    API_PARSE_THREADS: 'two',
  });
  t.equal(result.code, 1);
  for (const name of ['API_PORT', 'REDIS_URL', 'INTERNAL_TOKEN', 'DATA_GATE_SOLD', 'ENABLED_SITES', 'AUTH_CACHE_TTL_MS', 'API_IDLE_GC_MS', 'API_PARSE_THREADS']) {
    t.match(result.stderr, new RegExp(`${name}:`), `names ${name}`);
  }
  t.match(result.stderr, /market\.xx/);
});

t.test('accounts and jobs fail fast too', async (t) => {
  const accounts = await runService('accounts', { DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'short' });
  t.equal(accounts.code, 1);
  t.match(accounts.stderr, /DATABASE_URL:/);
  t.match(accounts.stderr, /INTERNAL_TOKEN: must be at least 32/);
  t.match(accounts.stderr, /WEBHOOK_SECRET_KEY: is required/, 'names the missing webhook secret key');
  const badKey = await runService('accounts', { INTERNAL_TOKEN: 'x'.repeat(32), WEBHOOK_SECRET_KEY: 'not-a-key' });
  t.equal(badKey.code, 1);
  t.match(badKey.stderr, /WEBHOOK_SECRET_KEY: must be base64 of exactly 32 bytes/);
  const jobs = await runService('jobs', { JOBS_INTERNAL_PORT: '70000', JOBS_PARSE_THREADS: '9' });
  t.equal(jobs.code, 1);
  t.match(jobs.stderr, /JOBS_INTERNAL_PORT:/);
  t.match(jobs.stderr, /JOBS_PARSE_THREADS: must be at most 8/);
});
