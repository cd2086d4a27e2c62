import { migrateToLatest } from '@comps/shared/db/migrate';
import { launchStack, type Stack } from './stack/launch-stack.js';
import { loadStartConfig } from './start-config.js';

/**
 * `npm start`: migrates, then runs the marketplace simulator, accounts, api, jobs and Caddy in the foreground until Ctrl-C
 * (or SIGTERM), which stops them all. If one of them dies, the others are stopped too.
 */
async function main(): Promise<void> {
  const config = loadStartConfig(process.env);
  const passThrough = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

  process.stdout.write(`migrating ${config.DATABASE_URL.replace(/\/\/[^@]*@/, '//…@')}\n`);
  const report = await migrateToLatest(config.DATABASE_URL);
  process.stdout.write(`database ${report.database}: ${report.applied.length} migration(s) applied\n`);

  let stack: Stack | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('stopping…\n');
    await stack?.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  stack = await launchStack({
    env: {
      ...passThrough,
      DATABASE_URL: config.DATABASE_URL,
      REDIS_URL: config.REDIS_URL,
      INTERNAL_TOKEN: config.INTERNAL_TOKEN,
      LOG_LEVEL: config.LOG_LEVEL,
    },
    ports: {
      public: config.PORT,
      api: config.API_PORT,
      apiInternal: config.API_INTERNAL_PORT,
      accounts: config.ACCOUNTS_PORT,
      accountsInternal: config.ACCOUNTS_INTERNAL_PORT,
      jobsInternal: config.JOBS_INTERNAL_PORT,
      marketSim: config.MARKET_SIM_PORT,
    },
    caddyBin: config.CADDY_BIN,
  });
  for (const [name, child] of Object.entries(stack.processes)) {
    child.onUnexpectedExit((code) => {
      process.stderr.write(`${name} exited (code ${code}); stopping the stack\n`);
      void stop(1);
    });
  }
  process.stdout.write(`\nComps API is up: ${stack.baseUrl}  (try: curl ${stack.baseUrl}/v1/capabilities)\nCtrl-C stops everything.\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
