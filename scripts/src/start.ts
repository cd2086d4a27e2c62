import { ensureInternalTokenFile } from '@comps/shared/config/internal-token-file';
import { ensureWebhookSecretKeyFile } from '@comps/shared/config/webhook-secret-key-file';
import { migrateAll } from './migrate-all.js';
import { unreachableServers, redactUrl } from './stack/check-servers.js';
import { launchStack, STOP_BUDGET_MS, type Stack } from './stack/launch-stack.js';
import { superviseStack } from './stack/supervise-stack.js';
import { loadStartConfig } from './start-config.js';

/** Signals that stop the stack: systemd and `docker stop` (SIGTERM), a terminal's Ctrl-C (SIGINT) or its closing (SIGHUP). */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Writes to the launcher's stdout or stderr, or nowhere once the reader is gone (a closed pipe must not end the
 * launcher halfway through stopping the stack).
 */
function keepWritingSafely(stream: NodeJS.WriteStream): (text: string) => void {
  stream.on('error', () => stream.destroy());
  return (text) => {
    if (stream.writable && !stream.destroyed) stream.write(text);
  };
}

/**
 * `npm start`: checks that MariaDB and Redis answer, migrates, then runs the marketplace simulator, accounts, api, jobs
 * and Caddy until SIGTERM, SIGINT or SIGHUP (one or several, to this process or to its whole group), which stops them
 * in order within 15 s. A process that crashes is restarted with backoff; one that crashes again and again stops
 * the stack (exit 1).
 */
async function main(): Promise<void> {
  const writeOut = keepWritingSafely(process.stdout);
  const writeErr = keepWritingSafely(process.stderr);
  const say = (line: string) => writeOut(`start: ${line}\n`);
  const complain = (line: string) => writeErr(`start: ${line}\n`);

  const config = loadStartConfig(process.env);
  // WEBHOOK_SECRET_KEY goes to accounts alone (launchStack's webhookSecretKey), not to every service.
  const passThrough = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[0] !== 'WEBHOOK_SECRET_KEY'),
  );

  const stopping = new AbortController();
  let migrating: Promise<unknown> | undefined;
  let launching: Promise<Stack> | undefined;
  let stack: Stack | undefined;
  let stopped: Promise<void> | undefined;
  const stop = (reason: string, exitCode: number): Promise<void> => {
    if (stopped) {
      say(`${reason} while stopping: still stopping`);
      return stopped;
    }
    const began = Date.now();
    (exitCode === 0 ? say : complain)(`${reason}: stopping the stack`);
    stopping.abort();
    // The stack's own deadline kills what is left at STOP_BUDGET_MS; this one only guards against a launcher bug.
    setTimeout(() => {
      complain('stop did not finish in time; killing what is left');
      process.exit(1);
    }, STOP_BUDGET_MS + 500).unref();
    stopped = (async () => {
      // A stop during the start waits for it: launchStack stops what it started when its signal aborts.
      await migrating?.catch(() => undefined);
      const launched = await launching?.catch(() => undefined);
      await launched?.stop();
      say(`stopped in ${Date.now() - began} ms`);
      process.exit(exitCode);
    })();
    return stopped;
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => void stop(signal, 0));
  // Last resort if the launcher itself fails: its children must not outlive it.
  process.on('exit', () => {
    for (const child of Object.values(stack?.processes ?? {})) child.killNow();
  });

  const problems = await unreachableServers([
    { kind: 'MariaDB', url: config.DATABASE_URL, variable: 'DATABASE_URL' },
    { kind: 'Redis', url: config.REDIS_URL, variable: 'REDIS_URL' },
  ]);
  if (problems.length > 0) {
    for (const problem of problems) complain(problem);
    process.exit(1);
  }

  say(`migrating ${redactUrl(config.DATABASE_URL)}`);
  const migration = migrateAll(config.DATABASE_URL);
  migrating = migration;
  const report = await migration;
  say(`database ${report.database}: ${report.applied.length} migration(s) applied`);
  if (stopping.signal.aborted) return;

  launching = launchStack({
    env: {
      ...passThrough,
      DATABASE_URL: config.DATABASE_URL,
      REDIS_URL: config.REDIS_URL,
      // Without a configured token, the one kept in .run/internal-token (made once), which the admin command reads.
      INTERNAL_TOKEN: config.INTERNAL_TOKEN ?? ensureInternalTokenFile(),
      LOG_LEVEL: config.LOG_LEVEL,
    },
    // Without a configured key, the one kept in .run/webhook-secret-key (made once): the webhook secrets sealed under it
    // stay readable across restarts.
    webhookSecretKey: config.WEBHOOK_SECRET_KEY ?? ensureWebhookSecretKeyFile(),
    ports: {
      public: config.PORT,
      api: config.API_PORT,
      apiInternal: config.API_INTERNAL_PORT,
      accounts: config.ACCOUNTS_PORT,
      accountsInternal: config.ACCOUNTS_INTERNAL_PORT,
      jobsInternal: config.JOBS_INTERNAL_PORT,
      marketSim: config.MARKET_SIM_PORT,
    },
    output: { stdout: process.stdout, stderr: process.stderr },
    caddyBin: config.CADDY_BIN,
    signal: stopping.signal,
    log: say,
  });
  try {
    stack = await launching;
  } catch (error) {
    if (stopping.signal.aborted) return;
    throw error;
  }
  if (stopping.signal.aborted) return;
  superviseStack(Object.values(stack.processes), {
    signal: stopping.signal,
    log: complain,
    onGiveUp: (reason) => void stop(reason, 1),
  });
  say(`Comps API is up: ${stack.baseUrl}  (try: curl ${stack.baseUrl}/v1/capabilities)`);
  say('Ctrl-C (or SIGTERM) stops everything.');
}

main().catch((error: unknown) => {
  process.stderr.write(`start: ${error instanceof Error ? error.message : String(error)}; everything it started was stopped\n`);
  process.exit(1);
});
