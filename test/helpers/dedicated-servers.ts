import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@comps/scripts/stack/free-port';

/**
 * Real Redis and MariaDB servers of a test's own, on free ports, that the test may stop and start
 * again (outage tests must not stop the machine's shared servers that other tests use).
 */
export interface DedicatedServer {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP: the server keeps its connections open but answers nothing (a hung server). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  destroy(): Promise<void>;
}

function waitForPort(port: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

function managed(command: string, args: string[], port: number, url: string, cleanup: () => Promise<void>): DedicatedServer {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  return {
    port,
    url,
    async start() {
      child = spawn(command, args, { stdio: 'ignore' });
      const current = child;
      exited = new Promise((resolve) => current.once('exit', () => resolve()));
      await waitForPort(port);
    },
    stop,
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async destroy() {
      child?.kill('SIGCONT');
      await stop();
      await cleanup();
    },
  };
}

/**
 * With `persistent`, Redis runs as operators are told to run it: append-only file, fsync every
 * second, in a directory of its own that survives stop() and start() (a restart keeps its data).
 */
export async function dedicatedRedis(options: { persistent?: boolean } = {}): Promise<DedicatedServer> {
  const port = await freePort();
  const dir = options.persistent ? await mkdtemp(path.join(tmpdir(), 'comps-redis-')) : undefined;
  const persistence = dir ? ['--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir] : ['--appendonly', 'no'];
  const server = managed(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence],
    port,
    `redis://127.0.0.1:${port}`,
    async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  );
  await server.start();
  return server;
}

export async function dedicatedMariadb(): Promise<DedicatedServer> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'comps-mariadb-'));
  const datadir = path.join(dir, 'data');
  // Temporary files in a directory of its own: a MariaDB server deletes the leftover `#sql*` files of its tmpdir as it
  // starts, and in the shared /tmp those are the temporary tables of the machine's own server, in use by other tests.
  const tmpDir = path.join(dir, 'tmp');
  await mkdir(tmpDir);
  await new Promise<void>((resolve, reject) => {
    execFile(
      'mariadb-install-db',
      ['--no-defaults', `--datadir=${datadir}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--user=root'],
      { env: { ...process.env, TMPDIR: tmpDir } },
      (error) => (error ? reject(error) : resolve()),
    );
  });
  const server = managed(
    process.env.MARIADBD_BIN ?? '/usr/sbin/mariadbd',
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--tmpdir=${tmpDir}`,
      `--port=${port}`,
      `--socket=${path.join(dir, 'mysqld.sock')}`,
      '--bind-address=127.0.0.1',
      '--user=root',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=32M',
      '--innodb-log-file-size=8M',
    ],
    port,
    `mysql://root@127.0.0.1:${port}/comps_outage_test`,
    () => rm(dir, { recursive: true, force: true }),
  );
  await server.start();
  return server;
}
