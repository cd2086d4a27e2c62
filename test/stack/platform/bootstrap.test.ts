import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { freePort } from '@comps/scripts/stack/free-port';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';
import { caddyProblem, dependenciesNeedInstall } from '../../../scripts/bootstrap.mjs';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../helpers/test-env.js';
import { withoutTapHooks } from '../../helpers/without-tap-hooks.js';

// What a fresh clone meets: dependencies installed when missing or stale, Caddy found (or one line saying what to do),
// MariaDB and Redis reachable (or a message naming the URL and how to start them; npm start never starts them).

t.test('dependencies are installed when node_modules is missing or older than the lockfile', async (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'comps-bootstrap-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(path.join(root, 'package-lock.json'), '{}');
  t.equal(dependenciesNeedInstall(root), true, 'no node_modules: install');
  mkdirSync(path.join(root, 'node_modules'));
  writeFileSync(path.join(root, 'node_modules', '.package-lock.json'), '{}');
  const now = Date.now() / 1000;
  utimesSync(path.join(root, 'package-lock.json'), now - 60, now - 60);
  t.equal(dependenciesNeedInstall(root), false, 'installed after the lockfile was written: nothing to do');
  utimesSync(path.join(root, 'package-lock.json'), now + 60, now + 60);
  t.equal(dependenciesNeedInstall(root), true, 'the lockfile changed since (a pull): install again');
});

t.test('Caddy missing: one line naming the package and CADDY_BIN', async (t) => {
  t.equal(caddyProblem({ PATH: process.env.PATH, CADDY_BIN: process.env.CADDY_BIN }), undefined, 'found on this machine');
  const missing = caddyProblem({ PATH: '/nonexistent' });
  t.match(missing, /^Caddy is not installed: install the package "caddy" .* or set CADDY_BIN/);
  t.notMatch(missing, /\n/, 'one line');
  t.match(caddyProblem({ PATH: process.env.PATH, CADDY_BIN: '/nonexistent/caddy' }), /^CADDY_BIN=\/nonexistent\/caddy is not an executable: .*"caddy"/);
});

/** `npm start` with some variables changed; it is expected to refuse before starting anything. */
function npmStart(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      ...withoutTapHooks('npm', ['start']),
      {
        cwd: ROOT_DIR,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: TEST_DATABASE_URL, REDIS_URL: TEST_REDIS_URL, ...env },
        timeout: 120_000,
      },
      // Killed at the timeout (a hang), the error has a signal and no code: never taken for an exit code.
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

t.test('npm start without Caddy says what to do and starts nothing', async (t) => {
  const { code, output } = await npmStart({ CADDY_BIN: '/nonexistent/caddy' });
  t.equal(code, 1, 'exits 1');
  t.match(output, /^bootstrap: CADDY_BIN=\/nonexistent\/caddy is not an executable/m);
  t.notMatch(output, /ready \(pid/, 'nothing was started');
});

t.test('npm test without the Chromium it names says what to do and runs no test', async (t) => {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) =>
    execFile(
      ...withoutTapHooks(process.execPath, [path.join(ROOT_DIR, 'scripts', 'bootstrap.mjs'), 'test']),
      { cwd: ROOT_DIR, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', CHROMIUM_BIN: '/nonexistent/chromium' }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
  t.equal(code, 1, 'exits 1');
  t.match(output, /^bootstrap: CHROMIUM_BIN=\/nonexistent\/chromium is not an executable: install the package "chromium"/m);
});

t.test('npm start with MariaDB or Redis unreachable names the URL and how to start it', async (t) => {
  const port = await freePort();
  const redis = await npmStart({ REDIS_URL: `redis://127.0.0.1:${port}` });
  t.equal(redis.code, 1, 'exits 1');
  t.match(redis.output, new RegExp(`Redis is not reachable at redis://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): start it \\(.*redis-server.*\\), or set REDIS_URL`));
  t.notMatch(redis.output, /migrating|ready \(pid/, 'nothing was migrated or started');

  const database = await npmStart({ DATABASE_URL: `mysql://root:secret@127.0.0.1:${port}/comps` });
  t.equal(database.code, 1, 'exits 1');
  t.match(database.output, new RegExp(`MariaDB is not reachable at mysql://root:…@127\\.0\\.0\\.1:${port}/comps \\(ECONNREFUSED\\): start it \\(.*mariadb.*\\), or set DATABASE_URL`));
  t.notMatch(database.output, /secret/, 'the password is not shown');
});
