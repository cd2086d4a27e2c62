import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, createWriteStream, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { freePort } from '@comps/scripts/stack/free-port';
import { launchStack, ROOT_DIR, type Stack, type StackOptions } from '@comps/scripts/stack/launch-stack';
import { CADDY_BIN, prepareTestDatabase, TEST_DATABASE_URL, TEST_REDIS_URL } from './test-env.js';
import { WITHOUT_TAP_HOOKS, withoutTapHooks } from './without-tap-hooks.js';

export interface TestStack extends Stack {
  internalToken: string;
  redisKeyPrefix: string;
  accountsInternalUrl: string;
  logFile: string;
}

export interface Teardown {
  teardown(fn: () => unknown): void;
  name: string;
}

let counter = 0;

/**
 * A whole stack (accounts, api, jobs, Caddy) on free ports for one test file, on the test file's own
 * database and real Redis under a key prefix of its own; stopped when the test ends. Service logs
 * go to test/.logs/, to read when a test fails.
 */
export async function startTestStack(
  t: Teardown,
  options: { env?: Record<string, string>; serviceEnv?: StackOptions['serviceEnv'] } = {},
): Promise<TestStack> {
  await prepareTestDatabase();
  counter += 1;
  const logDir = path.join(ROOT_DIR, 'test', '.logs');
  mkdirSync(logDir, { recursive: true });
  const slug = `${path.basename(process.argv[1] ?? 'test', '.ts')}-${process.pid}-${counter}`;
  const logFile = path.join(logDir, `${slug}.log`);
  const file = createWriteStream(logFile);
  // A port picked free can be taken before its service binds it (any outgoing connection may get it
  // as its local port): such a start is tried again on new ports, up to three times.
  let portTaken = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (/EADDRINUSE|address already in use/.test(chunk.toString('latin1'))) portTaken = true;
      file.write(chunk, done);
    },
    final(done) {
      file.end(done);
    },
  });
  const internalToken = randomBytes(32).toString('base64url');
  const webhookSecretKey = randomBytes(32).toString('base64');
  const redisKeyPrefix = `test:${slug}:${randomBytes(4).toString('hex')}:`;
  const launch = () =>
    launchStack({
      webhookSecretKey,
      env: {
        DATABASE_URL: TEST_DATABASE_URL,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: redisKeyPrefix,
        INTERNAL_TOKEN: internalToken,
        LOG_LEVEL: 'info',
        // Tests fire requests faster than the production default allows; capacity tests set their own.
        UPSTREAM_CALLS_PER_SECOND: '1000',
        UPSTREAM_MAX_IN_FLIGHT: '200',
        ...options.env,
      },
      ...(options.serviceEnv ? { serviceEnv: options.serviceEnv } : {}),
      output,
      caddyBin: CADDY_BIN,
      nodeLauncher: WITHOUT_TAP_HOOKS,
    });
  let stack: Stack;
  for (let attempt = 1; ; attempt += 1) {
    portTaken = false;
    try {
      stack = await launch();
      break;
    } catch (error) {
      if (!portTaken || attempt === 3) throw error;
    }
  }
  t.teardown(async () => {
    await stack.stop();
    output.end();
  });
  return {
    ...stack,
    internalToken,
    redisKeyPrefix,
    accountsInternalUrl: `http://127.0.0.1:${stack.ports.accountsInternal}`,
    logFile,
  };
}

/** Where npm start's output goes: a pipe, a file, or a terminal (a pseudo-terminal through script(1)). */
export type NpmStartOutput = 'pipe' | 'file' | 'terminal';

export interface NpmStack {
  /** The `npm start` process, leader of its own process group (as a terminal or systemd would start it). */
  npm: ChildProcess;
  baseUrl: string;
  /** Where the admin command reaches this stack's accounts service, and with which token. */
  accountsInternalUrl: string;
  internalToken: string;
  /** The prefix of the stack's Redis keys (its permits among them). */
  redisKeyPrefix: string;
  /** Everything the stack wrote so far (the launcher, every service, Caddy). */
  output(): string;
  /** The pid of each process the launcher reported ready, the launcher included, in start order. */
  pids(): Map<string, number>;
  /** Waits for a line of output matching `pattern`. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Types Ctrl-C on the terminal (output 'terminal' only): the terminal sends SIGINT to its foreground group. */
  typeCtrlC(): void;
  /** Resolves when npm has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The process ids whose parent is `pid` (Linux /proc). */
export function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** The first process below `pid` whose command line contains `text`. */
function descendantRunning(pid: number, text: string): number | undefined {
  for (const child of childrenOf(pid)) {
    try {
      if (readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(text)) return child;
    } catch {
      continue;
    }
    const below = descendantRunning(child, text);
    if (below !== undefined) return below;
  }
  return undefined;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped by its parent) has ended too.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

type NpmStackOptions = { env?: Record<string, string>; output?: NpmStartOutput; waitUntilUp?: boolean };

/**
 * Runs `npm start` itself, as an operator would, on free ports, the test database and a Redis key prefix of its own,
 * its output on a pipe (or in a file) that the test reads. Killed at teardown if the test left it running. A port
 * picked free can be taken before its service binds it (any outgoing connection may get it as its local port): such
 * a start is tried again on new ports, up to three times.
 */
export async function startNpmStack(t: Teardown, options: NpmStackOptions = {}): Promise<NpmStack> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startNpmStackOnce(t, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** A start that failed because a port it was given was taken before its service bound it. */
class PortTaken extends Error {}

async function startNpmStackOnce(t: Teardown, options: NpmStackOptions): Promise<NpmStack> {
  counter += 1;
  const logDir = path.join(ROOT_DIR, 'test', '.logs');
  mkdirSync(logDir, { recursive: true });
  const slug = `${path.basename(process.argv[1] ?? 'test', '.ts')}-npm-${process.pid}-${counter}`;
  const logFile = path.join(logDir, `${slug}.log`);
  const port = async () => String(await freePort());
  const publicPort = await port();
  const accountsInternalPort = await port();
  const internalToken = randomBytes(32).toString('base64url');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    PORT: publicPort,
    API_PORT: await port(),
    API_INTERNAL_PORT: await port(),
    ACCOUNTS_PORT: await port(),
    ACCOUNTS_INTERNAL_PORT: accountsInternalPort,
    JOBS_INTERNAL_PORT: await port(),
    MARKET_SIM_PORT: await port(),
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: `test:${slug}:${randomBytes(4).toString('hex')}:`,
    // Stacks of concurrent tests keep apart from the token and key files npm start keeps for operators.
    INTERNAL_TOKEN: internalToken,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    CADDY_BIN,
    LOG_LEVEL: 'info',
    UPSTREAM_CALLS_PER_SECOND: '1000',
    UPSTREAM_MAX_IN_FLIGHT: '200',
    ...options.env,
  };
  let captured = '';
  let npm: ChildProcess;
  if (options.output === 'file') {
    const fd = openSync(logFile, 'w');
    npm = spawn(...withoutTapHooks('npm', ['start']), { cwd: ROOT_DIR, env, detached: true, stdio: ['ignore', fd, fd] });
    closeSync(fd);
  } else {
    const log = createWriteStream(logFile);
    npm =
      options.output === 'terminal'
        ? spawn('script', ['-qfec', `exec ${WITHOUT_TAP_HOOKS.join(' ')} npm start`, '/dev/null'], { cwd: ROOT_DIR, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
        : spawn(...withoutTapHooks('npm', ['start']), { cwd: ROOT_DIR, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (chunk: Buffer) => {
      captured += chunk.toString('utf8');
      log.write(chunk);
    };
    npm.stdout?.on('data', collect);
    npm.stderr?.on('data', collect);
    npm.once('exit', () => log.end());
  }
  const output = () => (options.output === 'file' ? readFileSync(logFile, 'utf8') : captured);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitForOutput = async (pattern: RegExp, timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = output().match(pattern);
      if (match) return match;
      if (npm.exitCode !== null || npm.signalCode !== null) {
        throw new Error(`npm start exited (${npm.exitCode ?? npm.signalCode}) before printing ${pattern}:\n${output().slice(-3000)}`);
      }
      if (Date.now() > deadline) throw new Error(`no output matching ${pattern} within ${timeoutMs} ms; see ${logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  t.teardown(async () => {
    if (npm.exitCode !== null || npm.signalCode !== null) return;
    const stack = [...pids().values()];
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
    for (const pid of stack) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
  const pids = () => {
    const found = new Map<string, number>();
    const launcher = descendantRunning(npm.pid!, 'bootstrap.mjs');
    if (launcher !== undefined) found.set('launcher', launcher);
    for (const [, name, pid] of output().matchAll(/^start: ([\w-]+) (?:ready|restarted) \(pid (\d+)/gm)) found.set(name!, Number(pid));
    return found;
  };
  if (options.waitUntilUp ?? true) {
    try {
      await waitForOutput(/^start: Comps API is up/m);
    } catch (error) {
      // The whole output, not the error's tail: the stop that follows a failed start pushes the cause out of it.
      if (/EADDRINUSE|address already in use/.test(output())) throw new PortTaken(error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
  const typeCtrlC = () => {
    if (options.output !== 'terminal') throw new Error('typeCtrlC needs output: terminal');
    npm.stdin!.write('\x03');
  };
  return {
    npm,
    baseUrl: `http://127.0.0.1:${publicPort}`,
    accountsInternalUrl: `http://127.0.0.1:${accountsInternalPort}`,
    internalToken,
    redisKeyPrefix: env.REDIS_KEY_PREFIX!,
    output,
    pids,
    waitForOutput,
    typeCtrlC,
    exited,
  };
}

/**
 * A workspace and key made as the README tells operators, `npm run --silent admin -- workspace create …`, asking the
 * stack's accounts service.
 */
export function createWorkspaceWithNpm(stack: Pick<NpmStack, 'accountsInternalUrl' | 'internalToken'>, plan = 'pro'): Promise<{ workspaceId: string; apiKey: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      ...withoutTapHooks('npm', ['run', '--silent', 'admin', '--', 'workspace', 'create', '--name', 't', '--plan', plan]),
      {
        cwd: ROOT_DIR,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          ACCOUNTS_URL: stack.accountsInternalUrl,
          INTERNAL_TOKEN: stack.internalToken,
        },
      },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`admin failed: ${stderr}`));
        const line = stdout.trim().split('\n').pop() ?? '';
        try {
          const created = JSON.parse(line) as { workspaceId: string; apiKey: string };
          resolve(created);
        } catch {
          reject(new Error(`admin printed no JSON: ${stdout}`));
        }
      },
    );
  });
}
