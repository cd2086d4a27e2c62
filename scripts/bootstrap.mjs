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

/** A program the stack or its tests run, from the Debian package of the same name. */
const CADDY = { name: 'Caddy', binary: 'caddy', pkg: 'caddy', variable: 'CADDY_BIN' };
// Where Debian installs it, and where the browser tests look for it (test/helpers/browser.ts).
const CHROMIUM = { name: 'Chromium (for the dashboard tests)', binary: '/usr/bin/chromium', pkg: 'chromium', variable: 'CHROMIUM_BIN' };

/** What is wrong with a program's installation, in one line saying what to do; undefined when it is there. */
function toolProblem(tool, env = process.env) {
  const configured = env[tool.variable];
  if (findExecutable(configured || tool.binary, env.PATH)) return undefined;
  if (configured) return `${tool.variable}=${configured} is not an executable: install the package "${tool.pkg}" or point ${tool.variable} at the ${tool.pkg} binary`;
  return `${tool.name} is not installed: install the package "${tool.pkg}" (e.g. \`sudo apt-get install ${tool.pkg}\`) or set ${tool.variable} to the ${tool.pkg} binary`;
}

export function caddyProblem(env = process.env) {
  return toolProblem(CADDY, env);
}

/**
 * A program installed through apt-get when missing and running as root; otherwise one line saying what
 * to do. A program named by its variable is never replaced by an install.
 */
function ensureTool(tool) {
  const problem = toolProblem(tool);
  if (!problem) return;
  const canInstall = !process.env[tool.variable] && process.getuid?.() === 0 && findExecutable('apt-get');
  if (canInstall) {
    say(`installing ${tool.name} (apt-get install ${tool.pkg})`);
    const apt = { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
    const installed =
      run('apt-get', ['install', '-y', '-q', tool.pkg], apt) ||
      (run('apt-get', ['update', '-q'], apt) && run('apt-get', ['install', '-y', '-q', tool.pkg], apt));
    if (installed && !toolProblem(tool)) return;
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
  child.on('error', (error) => fail(`could not run ${command}: ${error.message}`));
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
  ensureTool(CADDY);
  if (mode === 'start') {
    npmScript('build');
    // The launcher runs in this very process, so the signals npm passes on reach it directly.
    await import(pathToFileURL(path.join(ROOT, 'scripts', 'dist', 'start.js')).href);
    return;
  }
  ensureTool(CHROMIUM);
  // The build includes the native helper, which the type check does not make.
  npmScript('build');
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
