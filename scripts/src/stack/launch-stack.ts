import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Writable } from 'node:stream';
import { freePort } from './free-port.js';
import { ManagedProcess } from './managed-process.js';

export const ROOT_DIR = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export type ServiceName = 'market-sim' | 'accounts' | 'api' | 'jobs';

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
  /** Ports; 0 (or absent) picks a free one. */
  ports?: Partial<StackPorts>;
  /** Extra variables for one service only. */
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  output?: 'inherit' | Writable;
  caddyBin?: string;
}

export interface Stack {
  ports: StackPorts;
  /** The public address, through Caddy. */
  baseUrl: string;
  env: Record<string, string>;
  processes: Record<ServiceName | 'caddy', ManagedProcess>;
  /** Starts one more api process on its own ports, sharing everything else (for multi-instance tests). */
  startExtraApi(env?: Record<string, string>): Promise<{ url: string; process: ManagedProcess }>;
  stop(): Promise<void>;
}

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

function nodeService(name: ServiceName, env: Record<string, string>, readyUrl: string, output: 'inherit' | Writable) {
  return new ManagedProcess({
    name,
    command: process.execPath,
    args: [path.join(ROOT_DIR, 'services', name, 'dist', 'main.js')],
    env,
    cwd: ROOT_DIR,
    output,
    readyUrl,
  });
}

/**
 * Starts the marketplace simulator, accounts, api, jobs and Caddy in front of them (migrations are the caller's step), each
 * checked ready before the next; stop() ends them in reverse order. Used by `npm start` and tests.
 */
export async function launchStack(options: StackOptions): Promise<Stack> {
  const ports = await resolvePorts(options.ports);
  const output = options.output ?? 'inherit';
  const local = (port: number) => `http://127.0.0.1:${port}`;
  const base = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...options.env,
    ACCOUNTS_URL: local(ports.accountsInternal),
    MARKET_SIM_URL: local(ports.marketSim),
  };
  const envFor = (name: ServiceName, own: Record<string, string>) => ({ ...base, ...own, ...(options.serviceEnv?.[name] ?? {}) });

  const marketSim = nodeService(
    'market-sim',
    envFor('market-sim', { MARKET_SIM_PORT: String(ports.marketSim) }),
    `${local(ports.marketSim)}/readyz`,
    output,
  );
  const accounts = nodeService(
    'accounts',
    envFor('accounts', { ACCOUNTS_PORT: String(ports.accounts), ACCOUNTS_INTERNAL_PORT: String(ports.accountsInternal) }),
    `${local(ports.accountsInternal)}/readyz`,
    output,
  );
  const apiEnv = (apiPort: number, internalPort: number, extra: Record<string, string> = {}) =>
    ({ ...envFor('api', { API_PORT: String(apiPort), API_INTERNAL_PORT: String(internalPort) }), ...extra });
  const api = nodeService('api', apiEnv(ports.api, ports.apiInternal), `${local(ports.apiInternal)}/readyz`, output);
  const jobs = nodeService(
    'jobs',
    envFor('jobs', { JOBS_INTERNAL_PORT: String(ports.jobsInternal) }),
    `${local(ports.jobsInternal)}/readyz`,
    output,
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
      ...(options.env.CADDY_LOG_LEVEL ? { CADDY_LOG_LEVEL: options.env.CADDY_LOG_LEVEL } : {}),
    },
    cwd: ROOT_DIR,
    output,
    readyUrl: `${local(ports.public)}/v1/capabilities`,
  });

  const started: ManagedProcess[] = [];
  const extras: ManagedProcess[] = [];
  const stop = async () => {
    for (const process of [...extras, ...started].reverse()) await process.stop();
  };
  try {
    for (const process of [marketSim, accounts, api, jobs, caddy]) {
      await process.start();
      started.push(process);
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
      const extra = nodeService('api', apiEnv(apiPort, internalPort, env), `${local(internalPort)}/readyz`, output);
      await extra.start();
      extras.push(extra);
      return { url: local(apiPort), process: extra };
    },
    stop,
  };
}
