#!/usr/bin/env node
// `npm start` and `npm test` on a fresh clone. Plain Node, no dependency: it runs before node_modules exists.
//   node scripts/bootstrap.mjs start         installs what is missing, builds, then becomes the launcher
//   node scripts/bootstrap.mjs test [args]   installs what is missing, type-checks, then runs tap with the args
// The npm scripts run it with `exec`, so that npm's SIGTERM and SIGINT reach this process (sh would swallow them).
import { spawnSync, spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Defaults of test/helpers/test-env.ts, for the reachability check of `npm test`. */
const TEST_DEFAULTS = { TEST_DATABASE_URL: 'mysql://root@127.0.0.1:3306/comps_test', TEST_REDIS_URL: 'redis://127.0.0.1:6379' };

function say(line) {
  process.stderr.write(`bootstrap: ${line}\n`);
}

function mtimeOf(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Whether the dependencies must be installed: node_modules is missing, or npm's record of what it installed
 * (node_modules/.package-lock.json) is older than package-lock.json (a pull changed the lockfile).
 */
export function dependenciesNeedInstall(root = ROOT) {
  const installed = mtimeOf(path.join(root, 'node_modules', '.package-lock.json'));
  const locked = mtimeOf(path.join(root, 'package-lock.json'));
  return installed === undefined || (locked !== undefined && locked > installed);
}

/** The path of an executable: `name` itself when it has a slash, else the first match on PATH. */
export function findExecutable(name, searchPath = process.env.PATH ?? '') {
  const candidates = name.includes('/') ? [name] : searchPath.split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not there; try the next.
    }
  }
  return undefined;
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  return result.status === 0;
}

function ensureDependencies() {
  if (!dependenciesNeedInstall()) return;
  say('installing the dependencies (npm ci)');
  if (!run('npm', ['ci', '--no-audit', '--no-fund'])) fail('npm ci failed (see above)');
}

/**
 * Caddy, installed through apt-get when missing and running as root; otherwise one line saying what to do. An explicit
 * CADDY_BIN is never replaced by an install.
 */
export function caddyProblem(env = process.env) {
  const configured = env.CADDY_BIN;
  const name = configured || 'caddy';
  if (findExecutable(name, env.PATH)) return undefined;
  if (configured) return `CADDY_BIN=${configured} is not an executable: install the package "caddy" or point CADDY_BIN at the caddy binary`;
  return 'Caddy is not installed: install the package "caddy" (e.g. `sudo apt-get install caddy`) or set CADDY_BIN to the caddy binary';
}

function ensureCaddy() {
  const problem = caddyProblem();
  if (!problem) return;
  const canInstall = !process.env.CADDY_BIN && process.getuid?.() === 0 && findExecutable('apt-get');
  if (canInstall) {
    say('installing Caddy (apt-get install caddy)');
    const apt = { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
    const installed =
      run('apt-get', ['install', '-y', '-q', 'caddy'], apt) ||
      (run('apt-get', ['update', '-q'], apt) && run('apt-get', ['install', '-y', '-q', 'caddy'], apt));
    if (installed && !caddyProblem()) return;
  }
  fail(problem);
}

function fail(message) {
  say(message);
  process.exit(1);
}

function npmScript(name) {
  if (!run('npm', ['run', '--silent', name])) process.exit(1);
}

/** Runs a command as the last step, passing the launcher's stop signals on, and exits with its status. */
function handOver(command, args) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function checkServers(checks) {
  const { unreachableServers } = await import(pathToFileURL(path.join(ROOT, 'scripts', 'dist', 'stack', 'check-servers.js')).href);
  const problems = await unreachableServers(checks);
  if (problems.length > 0) {
    for (const problem of problems) say(problem);
    process.exit(1);
  }
}

async function main(mode, args) {
  if (mode !== 'start' && mode !== 'test') fail('usage: node scripts/bootstrap.mjs start | test [tap arguments]');
  ensureDependencies();
  ensureCaddy();
  if (mode === 'start') {
    npmScript('build');
    // The launcher runs in this very process, so the signals npm passes on reach it directly.
    await import(pathToFileURL(path.join(ROOT, 'scripts', 'dist', 'start.js')).href);
    return;
  }
  npmScript('typecheck');
  npmScript('test:plugins');
  await checkServers([
    { kind: 'MariaDB', url: process.env.TEST_DATABASE_URL || TEST_DEFAULTS.TEST_DATABASE_URL, variable: 'TEST_DATABASE_URL' },
    { kind: 'Redis', url: process.env.TEST_REDIS_URL || TEST_DEFAULTS.TEST_REDIS_URL, variable: 'TEST_REDIS_URL' },
  ]);
  handOver(path.join(ROOT, 'node_modules', '.bin', 'tap'), args);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main(process.argv[2], process.argv.slice(3));
}
