import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { ManagedProcess, describeExit, type ProcessOutput } from './managed-process.js';
import { SERVICE_NODE_FLAGS, SERVICE_RUNTIME_ENV } from './service-runtime.js';

export const ROOT_DIR = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export type ServiceName = 'market-sim' | 'accounts' | 'api' | 'jobs';

/**
 * The file a service runs from: its compiled entry bundled with everything it imports into one file
 * (scripts/bundle-services.mjs, part of `npm run build`), which `npm start`, the tests and the image run;
 * or, with `modules`, the compiled entry itself, each module loaded from its own file (a CPU profile then
 * names the module of each function: bench:profile).
 */
export function serviceEntry(name: ServiceName, form: 'bundle' | 'modules' = 'bundle'): string {
  return path.join(ROOT_DIR, 'services', name, 'dist', form === 'bundle' ? 'main.bundle.js' : 'main.js');
}

export interface StackPorts {
  public: number;
  marketSim: number;
  api: number;
  apiInternal: number;
  accounts: number;
  accountsInternal: number;
  jobsInternal: number;
}

export interface StackOptions {
  /** Environment every service gets: DATABASE_URL, REDIS_URL, INTERNAL_TOKEN and the rest. */
  env: Record<string, string>;
  /** WEBHOOK_SECRET_KEY (base64 of 32 bytes), which seals webhook secrets at rest: accounts' alone, so it goes to accounts only. */
  webhookSecretKey: string;
  /** Ports; 0 (or absent) picks a free one. */
  ports?: Partial<StackPorts>;
  /** Extra variables for one service only. */
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  /** Node flags for one service, after its own (`SERVICE_NODE_FLAGS`): a benchmark's trials of V8 settings, and its profiles (`--cpu-prof`). */
  nodeFlags?: Partial<Record<ServiceName, string[]>>;
  /**
   * A command the services' `node` is started through, which then becomes node (same pid): the tests'
   * `env -u NODE_OPTIONS`, which keeps out the loader hook tap puts into everything a test spawns.
   */
  nodeLauncher?: readonly string[];
  /** Runs the services' compiled modules file by file rather than their bundles (`serviceEntry`): a profile's. */
  modules?: boolean;
  output?: ProcessOutput;
  caddyBin?: string;
  /** Aborting it during the start stops what was started; launchStack then rejects. */
  signal?: AbortSignal;
  /** Progress lines (which process starts, stops, how long it took). */
  log?: (line: string) => void;
}

export interface Stack {
  ports: StackPorts;
  /** The public address, through Caddy. */
  baseUrl: string;
  env: Record<string, string>;
  processes: Record<ServiceName | 'caddy', ManagedProcess>;
  /** Starts one more api process on its own ports, sharing everything else (for multi-instance tests). */
  startExtraApi(env?: Record<string, string>): Promise<{ url: string; internalUrl: string; process: ManagedProcess }>;
  /** Starts one more jobs process (another worker on the same database and Redis). */
  startExtraJobs(env?: Record<string, string>): Promise<{ url: string; process: ManagedProcess }>;
  /** Stops everything in order within `budgetMs` (what is left at the end is killed). */
  stop(budgetMs?: number): Promise<void>;
}

/** The whole stop, from the first signal to the last process gone, stays under the 15 s operators are promised. */
export const STOP_BUDGET_MS = 14_000;

/**
 * How long each process may take to stop before it is killed. Caddy's own `grace_period` (8 s) lets requests in
 * flight finish; the api then has its buffered history and settlements to deliver.
 */
const STOP_GRACE_MS: Record<ServiceName | 'caddy', number> = {
  caddy: 9_000,
  api: 10_000,
  jobs: 5_000,
  accounts: 5_000,
  'market-sim': 3_000,
};

/** Caddyfile settings an operator or a test may change (see proxy/Caddyfile). */
const CADDY_VARIABLES = ['CADDY_LOG_LEVEL', 'CADDY_READ_HEADER_TIMEOUT', 'CADDY_IDLE_TIMEOUT'] as const;

async function resolvePorts(ports: Partial<StackPorts> = {}): Promise<StackPorts> {
  const pick = async (port: number | undefined) => (port ? port : freePort());
  return {
    public: await pick(ports.public),
    marketSim: await pick(ports.marketSim),
    api: await pick(ports.api),
    apiInternal: await pick(ports.apiInternal),
    accounts: await pick(ports.accounts),
    accountsInternal: await pick(ports.accountsInternal),
    jobsInternal: await pick(ports.jobsInternal),
  };
}

function nodeService(
  name: ServiceName,
  env: Record<string, string>,
  readyUrl: string,
  output: ProcessOutput,
  nodeFlags: readonly string[],
  start: { launcher: readonly string[]; form: 'bundle' | 'modules' },
) {
  const commandLine = [...start.launcher, process.execPath, ...nodeFlags, serviceEntry(name, start.form)];
  return new ManagedProcess({
    name,
    command: commandLine[0]!,
    args: commandLine.slice(1),
    env,
    cwd: ROOT_DIR,
    output,
    readyUrl,
    detached: true,
    ipc: true,
  });
}

/**
 * Starts the marketplace simulator, accounts, api, jobs and Caddy in front of them (migrations are the caller's step),
 * each checked ready before what depends on it. Each runs in a process group of its own and follows the launcher if it dies.
 * stop() ends them in the order that loses no request: Caddy stops taking requests and lets those in flight finish,
 * then the api (and its extra instances), jobs, accounts, the simulator. A start that fails part way stops what it
 * started and rejects with the reason. Used by `npm start`, the tests and the benchmark.
 */
export async function launchStack(options: StackOptions): Promise<Stack> {
  const ports = await resolvePorts(options.ports);
  const output = options.output ?? 'inherit';
  const log = options.log ?? (() => undefined);
  const local = (port: number) => `http://127.0.0.1:${port}`;
  const base = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...options.env,
    ACCOUNTS_URL: local(ports.accountsInternal),
    JOBS_URL: local(ports.jobsInternal),
    MARKET_SIM_URL: local(ports.marketSim),
  };
  // The service's runtime settings come first: the operator's environment, the stack's and a test's may change them.
  const envFor = (name: ServiceName, own: Record<string, string>) => ({ ...SERVICE_RUNTIME_ENV[name], ...base, ...own, ...(options.serviceEnv?.[name] ?? {}) });
  // A benchmark's trial flags come after the service's own: for V8, the last of a flag wins.
  const flagsOf = (name: ServiceName) => [...(SERVICE_NODE_FLAGS[name] ?? []), ...(options.nodeFlags?.[name] ?? [])];
  const start = { launcher: options.nodeLauncher ?? [], form: options.modules ? 'modules' : 'bundle' } as const;

  const marketSim = nodeService(
    'market-sim',
    envFor('market-sim', { MARKET_SIM_PORT: String(ports.marketSim) }),
    `${local(ports.marketSim)}/readyz`,
    output,
    flagsOf('market-sim'),
    start,
  );
  const accounts = nodeService(
    'accounts',
    envFor('accounts', {
      ACCOUNTS_PORT: String(ports.accounts),
      ACCOUNTS_INTERNAL_PORT: String(ports.accountsInternal),
      WEBHOOK_SECRET_KEY: options.webhookSecretKey,
    }),
    `${local(ports.accountsInternal)}/readyz`,
    output,
    flagsOf('accounts'),
    start,
  );
  const apiEnv = (apiPort: number, internalPort: number, extra: Record<string, string> = {}) =>
    ({ ...envFor('api', { API_PORT: String(apiPort), API_INTERNAL_PORT: String(internalPort) }), ...extra });
  const api = nodeService('api', apiEnv(ports.api, ports.apiInternal), `${local(ports.apiInternal)}/readyz`, output, flagsOf('api'), start);
  const jobs = nodeService(
    'jobs',
    envFor('jobs', { JOBS_INTERNAL_PORT: String(ports.jobsInternal) }),
    `${local(ports.jobsInternal)}/readyz`,
    output,
    flagsOf('jobs'),
    start,
  );
  const caddyVariables = Object.fromEntries(
    CADDY_VARIABLES.flatMap((name) => (options.env[name] ? [[name, options.env[name]] as const] : [])),
  );
  const caddy = new ManagedProcess({
    name: 'caddy',
    command: options.caddyBin ?? 'caddy',
    args: ['run', '--config', path.join(ROOT_DIR, 'proxy', 'Caddyfile'), '--adapter', 'caddyfile'],
    env: {
      PATH: base.PATH,
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(ports.public),
      API_UPSTREAM: `127.0.0.1:${ports.api}`,
      ACCOUNTS_PUBLIC_UPSTREAM: `127.0.0.1:${ports.accounts}`,
      ...caddyVariables,
    },
    cwd: ROOT_DIR,
    output,
    readyUrl: `${local(ports.public)}/v1/capabilities`,
    detached: true,
    terminateWithParent: true,
  });

  const extras: ManagedProcess[] = [];
  // Extra api and jobs processes stop with their kind.
  const extraOf = (name: ServiceName) => extras.filter((process) => process.name === name);
  const stopOrder = () => [caddy, api, ...extraOf('api'), jobs, ...extraOf('jobs'), accounts, marketSim];
  const graceOf = (process: ManagedProcess) => STOP_GRACE_MS[process.name as ServiceName | 'caddy'] ?? 10_000;
  const stop = async (budgetMs = STOP_BUDGET_MS) => {
    const deadline = Date.now() + budgetMs;
    for (const process of stopOrder()) {
      if (!process.running) {
        await process.stopWithExit(0);
        continue;
      }
      const started = Date.now();
      const left = deadline - started;
      const exit = left > 0 ? await process.stopWithExit(Math.min(graceOf(process), left)) : (await process.kill(), undefined);
      log(`${process.name} ${exit ? describeExit(exit) : 'was killed: out of time'} (${Date.now() - started} ms)`);
    }
  };

  const startOne = async (process: ManagedProcess) => {
    const started = Date.now();
    await process.start(options.signal);
    log(`${process.name} ready (pid ${process.pid}, ${Date.now() - started} ms)`);
  };
  try {
    // In waves: what does not depend on another starts together (a service's start is mostly loading its code, and
    // the machine has more than one core). The api and jobs ask accounts as they start; Caddy's readiness is a search
    // through the api. Each wave is waited for whole, so a failure stops only processes that finished starting.
    for (const wave of [[marketSim, accounts], [api, jobs], [caddy]]) {
      const outcomes = await Promise.allSettled(wave.map(startOne));
      const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    ports,
    baseUrl: local(ports.public),
    env: base,
    processes: { 'market-sim': marketSim, accounts, api, jobs, caddy },
    async startExtraApi(env = {}) {
      const apiPort = await freePort();
      const internalPort = await freePort();
      const extra = nodeService('api', apiEnv(apiPort, internalPort, env), `${local(internalPort)}/readyz`, output, flagsOf('api'), start);
      await extra.start();
      extras.push(extra);
      return { url: local(apiPort), internalUrl: local(internalPort), process: extra };
    },
    async startExtraJobs(env = {}) {
      const internalPort = await freePort();
      const extra = nodeService('jobs', { ...envFor('jobs', { JOBS_INTERNAL_PORT: String(internalPort) }), ...env }, `${local(internalPort)}/readyz`, output, flagsOf('jobs'), start);
      await extra.start();
      extras.push(extra);
      return { url: local(internalPort), process: extra };
    },
    stop,
  };
}
