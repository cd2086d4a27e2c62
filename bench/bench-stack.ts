import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { sql } from 'kysely';
import { createAccountsClient, type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { createRawDb, splitDatabaseUrl } from '@comps/shared/db/create-db';
import { migrateAll } from '@comps/scripts/migrate-all';
import { launchStack, type Stack, type StackOptions } from '@comps/scripts/stack/launch-stack';

export interface BenchStack {
  stack: Stack;
  accounts: AccountsClient;
  workspaceId: string;
  apiKey: string;
  stop(): Promise<void>;
}

/**
 * A whole stack for a benchmark, on a fresh database of its own and Redis keys of its own, with the
 * shared upstream capacity out of the way (the benchmark measures the stack, not the limit), and a
 * pro workspace whose quota, rate and concurrency are out of the way too.
 */
export async function startBenchStack(name: string, env: Record<string, string> = {}, serviceEnv: StackOptions['serviceEnv'] = {}, modules = false): Promise<BenchStack> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? `mysql://root@127.0.0.1:3306/comps_bench_${name}`;
  await resetBenchDatabase(databaseUrl);
  const internalToken = 'bench-token-bench-token-bench-token-00';
  const stack = await launchStack({
    webhookSecretKey: Buffer.alloc(32, 7).toString('base64'),
    env: {
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `bench-${name}:${Date.now()}:`,
      INTERNAL_TOKEN: internalToken,
      LOG_LEVEL: 'warn',
      UPSTREAM_CALLS_PER_SECOND: '1000000',
      UPSTREAM_MAX_IN_FLIGHT: '10000',
      UPSTREAM_WORKSPACE_SHARE: '1',
      MARKET_SIM_LATENCY_MS: '0',
      ...env,
    },
    serviceEnv: withTrialEnv(serviceEnv),
    ...trialFlags(),
    modules,
    output: 'inherit',
  });
  const agent = new Agent();
  const accounts = createAccountsClient({ url: `http://127.0.0.1:${stack.ports.accountsInternal}`, internalToken, timeoutMs: 10_000, dispatcher: agent });
  const { workspaceId, apiKey } = await accounts.workspaces.create.mutate({ name: 'bench', planId: 'pro' });
  await accounts.workspaces.setLimits.mutate({ workspaceId, monthlyQuota: 100_000_000, rateLimit: 100_000_000, concurrency: 10_000 });
  return {
    stack,
    accounts,
    workspaceId,
    apiKey: apiKey.key,
    async stop() {
      await agent.close();
      await stack.stop();
    },
  };
}

/**
 * `BENCH_SERVICE_ENV` (`NAME=value` pairs separated by `;`) is added to the api's and jobs' environment, over
 * the variables each runs with (`SERVICE_RUNTIME_ENV`), to measure a setting (the allocator's: `MALLOC_ARENA_MAX=2`).
 */
function withTrialEnv(serviceEnv: NonNullable<StackOptions['serviceEnv']>): StackOptions['serviceEnv'] {
  const pairs = (process.env.BENCH_SERVICE_ENV ?? '').split(';').filter(Boolean);
  const trial = Object.fromEntries(
    pairs.map((pair) => {
      const equals = pair.indexOf('=');
      if (equals <= 0) throw new Error(`BENCH_SERVICE_ENV: "${pair}" is not NAME=value`);
      return [pair.slice(0, equals), pair.slice(equals + 1)];
    }),
  );
  return { ...serviceEnv, api: { ...trial, ...serviceEnv.api }, jobs: { ...trial, ...serviceEnv.jobs } };
}

/**
 * `BENCH_NODE_FLAGS` (separated by spaces) are given to the api, jobs and accounts processes, to measure V8 settings
 * (`--max-semi-space-size=8`) or take a profile (`--cpu-prof --cpu-prof-dir=…`, which NODE_OPTIONS refuses);
 * `BENCH_NODE_FLAGS_FOR` (names separated by commas, as `api`) gives them to those services alone.
 */
function trialFlags(): Pick<StackOptions, 'nodeFlags'> {
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  if (flags.length === 0) return {};
  const services = (process.env.BENCH_NODE_FLAGS_FOR ?? 'api,jobs,accounts').split(',').filter(Boolean);
  const unknown = services.filter((name) => !['api', 'jobs', 'accounts', 'market-sim'].includes(name));
  if (unknown.length > 0) throw new Error(`BENCH_NODE_FLAGS_FOR: ${unknown.join(', ')} is not a service (api, jobs, accounts, market-sim)`);
  return { nodeFlags: Object.fromEntries(services.map((name) => [name, flags])) };
}

/** A benchmark's own database, dropped and migrated anew: every run starts from the same state. */
export async function resetBenchDatabase(url: string): Promise<void> {
  const { serverUrl, database } = splitDatabaseUrl(url);
  const server = createRawDb({ url: serverUrl, connectionLimit: 1 });
  await sql`DROP DATABASE IF EXISTS ${sql.id(database)}`.execute(server);
  await server.destroy();
  await migrateAll(url);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const log = (line = '') => process.stdout.write(`${line}\n`);

/**
 * CPU time (user + system) of a process so far, in ms, from /proc; with `mainThreadOnly`, of its
 * main thread alone (a Node process's JavaScript, without V8's and libuv's helper threads).
 */
export function cpuMs(pid: number | undefined, { mainThreadOnly = false } = {}): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * The minor page faults of a process so far (`/proc/<pid>/stat`): each is a page of memory it touched
 * for the first time since the kernel gave it (or since it gave it back). On this machine's virtual
 * machines a fault costs about 13 µs (a fresh 1.27 MB buffer filled: 4 ms; the same copy into a buffer
 * already touched: 0.2 ms), so memory taken fresh for each page is CPU the call pays.
 */
export function minorFaults(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[7]);
  } catch {
    return 0;
  }
}

/**
 * The time each thread of a process has spent on a core so far, in ms, by thread id, from the
 * scheduler's own count (`/proc/<pid>/task/<tid>/schedstat`, in nanoseconds: `cpuMs` counts in
 * 10 ms ticks, too coarse for a window of a few hundred ms). Empty for a process not running.
 */
export function threadCpuMs(pid: number | undefined): Map<number, number> {
  const threads = new Map<number, number>();
  if (!pid) return threads;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      threads.set(Number(tid), Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
    } catch {
      // The thread ended between the listing and the read: it is left out (its time goes to the process's own count).
    }
  }
  return threads;
}

/** The pid of a server of the machine (MariaDB, Redis), measured too: it works for the stack. */
export function serverPid(name: string): number | undefined {
  try {
    return Number(execFileSync('pidof', ['-s', name], { encoding: 'utf8' }).trim()) || undefined;
  } catch {
    return undefined;
  }
}

/** A process measured by a benchmark: its name in the report, and its pid (undefined: not running). */
export type MeasuredProcess = [name: string, pid: number | undefined];

/** The processes that do the stack's work: its own, and the machine's MariaDB and Redis. */
export function stackProcessesOf(stack: Stack): MeasuredProcess[] {
  return [
    ...Object.entries(stack.processes).map(([name, child]): MeasuredProcess => [name, child.pid]),
    ['mariadb', serverPid('mariadbd')],
    ['redis', serverPid('redis-server')],
  ];
}

/** Starts counting the CPU of `processes`; the function returned gives each one's milliseconds since. */
export function startCpuCount(processes: MeasuredProcess[]): () => Array<readonly [string, number]> {
  const before = processes.map(([, pid]) => cpuMs(pid));
  return () => processes.map(([name, pid], index) => [name, cpuMs(pid) - before[index]!] as const);
}

/** Resident memory of a process, in MB, from /proc. */
export function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** The threads of a process now (Node's own, libuv's pool, and any worker threads), from /proc. */
export function threadsOf(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/**
 * Messages a process has sent to a server so far: the data segments (`ss -ti`'s data_segs_out) of its
 * TCP connections to that port. A client writes each request (a command, a pipeline, an HTTP call)
 * in one segment on loopback and waits for its answer, so the difference over a run is its round
 * trips to that server, measured outside the process (requests coalesced by the client into one
 * write count once, as they cost once). Connections closed during the run are not counted.
 */
export function segmentsSent(pid: number | undefined, port: number): number {
  if (!pid) return 0;
  const out = execFileSync('ss', ['-tinpH', 'state', 'established', `dport = :${port}`], { encoding: 'utf8' });
  let total = 0;
  let ours = false;
  for (const line of out.split('\n')) {
    if (/^\S/.test(line) || line.includes('users:(')) ours = line.includes(`pid=${pid},`);
    const segments = /data_segs_out:(\d+)/.exec(line);
    if (ours && segments) total += Number(segments[1]);
  }
  return total;
}

/** Where a service's resident memory is, from its /metrics (internal port): heap total and used, external (buffers), in MB. */
export async function memoryBreakdown(internalPort: number): Promise<string> {
  let text: string;
  try {
    text = await (await fetch(`http://127.0.0.1:${internalPort}/metrics`)).text();
  } catch (error) {
    return `breakdown unavailable (${String(error)})`;
  }
  const mb = (name: string) => (Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 1_048_576).toFixed(0);
  return `resident ${mb('process_resident_memory_bytes')} MB: V8 heap ${mb('nodejs_heap_size_total_bytes')} MB (${mb('nodejs_heap_size_used_bytes')} in use), external ${mb('nodejs_external_memory_bytes')} MB (buffers ${mb('nodejs_array_buffers_bytes')})`;
}

export const verdict = (met: boolean) => (met ? 'MET' : 'NOT MET');

/** Runs a benchmark's main and exits with its outcome (the stack's processes are its children). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
