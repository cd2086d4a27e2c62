import { execFileSync } from 'node:child_process';
import { Socket } from 'node:net';
import { createDb } from '@comps/shared/db/create-db';
import { newRequestId } from '@comps/shared/ids';
import { createLedgerContext } from '../services/accounts/src/ledger/ledger-context.js';
import { leaseAllowance } from '../services/accounts/src/ledger/allowance-service.js';
import { reserveQuota, settleQuotaBatch } from '../services/accounts/src/ledger/ledger-service.js';
import { createWorkspace, setWorkspaceLimits } from '../services/accounts/src/workspaces/workspace-service.js';
import { cpuMs, log, resetBenchDatabase, runBench, startBenchStack } from './bench-stack.js';

/**
 * `npx tsx bench/reserve-bench.ts`: what one quota reservation (a new request id) costs.
 *
 * In process (the ledger service on a pool like accounts' own, against a scratch database): round
 * trips to the database per reservation (write calls on the database sockets: one per command sent),
 * p50 at one caller, CPU per reservation of this process and of mariadbd at 8 callers.
 * Through accounts (a stack started by launchStack, the accounts tRPC client): p50 at one caller, CPU
 * per reservation of accounts and of mariadbd at 8 callers.
 *
 * Beside it, what an allowance costs instead (QuotaAllowances): a lease of a block of 50 units, and
 * the settlement of its charges in batches of 10 (as the outbox settles them), in round trips and
 * time, per block and per unit: the request path itself makes no call to accounts then.
 *
 * The machine is shared: each figure is the median of BENCH_REPEATS runs. BENCH_PARTS picks
 * `ledger`, `accounts` or both; BENCH_SECONDS is the length of each run.
 */
const REPEATS = Number(process.env.BENCH_REPEATS ?? '5');
const SECONDS = Number(process.env.BENCH_SECONDS ?? '3');
const PARTS = new Set((process.env.BENCH_PARTS ?? 'ledger,accounts').split(','));
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/comps_bench_reserve';

type Reserve = () => Promise<{ ok: boolean }>;

interface Run {
  reservations: number;
  p50: number;
  p99: number;
  cpu: Record<string, number>;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);

function serverPid(name: string): number | undefined {
  try {
    return Number(execFileSync('pidof', ['-s', name], { encoding: 'utf8' }).trim()) || undefined;
  } catch {
    return undefined;
  }
}

const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** `callers` closed loops of reservations for `seconds`; CPU of each named process per reservation. */
async function run(reserve: Reserve, callers: number, seconds: number, cpuOf: Record<string, () => number>): Promise<Run> {
  const latencies: number[] = [];
  const before = Object.entries(cpuOf).map(([name, read]) => [name, read()] as const);
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const outcome = await reserve();
        if (!outcome.ok) throw new Error('a reservation was refused: the bench quota is too small');
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const cpu = Object.fromEntries(before.map(([name, start]) => [name, (cpuOf[name]!() - start) / latencies.length]));
  return { reservations: latencies.length, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), cpu };
}

/** p50 at one caller and CPU per reservation at 8, each the median of REPEATS runs. */
async function measure(label: string, reserve: Reserve, cpuOf: Record<string, () => number>): Promise<void> {
  await run(reserve, 8, 1, {});
  const single: Run[] = [];
  const eight: Run[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    single.push(await run(reserve, 1, SECONDS, {}));
    eight.push(await run(reserve, 8, SECONDS, cpuOf));
  }
  const cpu = Object.keys(cpuOf)
    .map((name) => `${name} ${median(eight.map((sample) => sample.cpu[name]!)).toFixed(2)} ms`)
    .join(', ');
  log(`${label}: 1 caller p50 ${median(single.map((sample) => sample.p50)).toFixed(2)} ms (p99 ${median(single.map((sample) => sample.p99)).toFixed(2)} ms)`);
  log(`${label}: 8 callers ${median(eight.map((sample) => sample.reservations / SECONDS)).toFixed(0)}/s, p50 ${median(eight.map((sample) => sample.p50)).toFixed(2)} ms; CPU per reservation: ${cpu}`);
  log(`${label}: runs at 1 caller, p50: ${single.map((sample) => sample.p50.toFixed(2)).join(' ')}`);
}

/**
 * Counts the commands sent to the database: mysql2 writes each command (a query, a multi-statement
 * query, a CALL) with one write on its socket and then waits for the answer, so writes are round trips.
 */
function countDatabaseWrites(port: number): { count(): number } {
  let writes = 0;
  const write = Socket.prototype.write;
  Socket.prototype.write = function (this: Socket, ...args: unknown[]) {
    if (this.remotePort === port) writes += 1;
    return (write as (...rest: unknown[]) => boolean).apply(this, args);
  } as typeof Socket.prototype.write;
  return { count: () => writes };
}

async function ledgerPart(mariadb: () => number): Promise<void> {
  await resetBenchDatabase(DATABASE_URL);
  const writes = countDatabaseWrites(Number(new URL(DATABASE_URL).port || 3306));
  // As accounts' main makes it.
  const db = createDb({ url: DATABASE_URL, connectionLimit: 20, isolation: 'read committed' });
  try {
    const ledger = createLedgerContext(db, 300_000);
    const { workspaceId } = await createWorkspace(db, { name: 'bench', planId: 'pro' });
    await setWorkspaceLimits(db, workspaceId, { monthlyQuota: 1_000_000_000 });
    const reserve = () => reserveQuota(ledger, { workspaceId, requestId: newRequestId() });
    // The first reservations make the pool's connections, read the quota and create the month's counter.
    await Promise.all(Array.from({ length: 20 }, reserve));

    const sequential = 200;
    const start = writes.count();
    for (let index = 0; index < sequential; index += 1) await reserve();
    log(`ledger: round trips per reservation: ${((writes.count() - start) / sequential).toFixed(2)} (${sequential} reservations, one caller)`);

    const { workspaceId: exhausted } = await createWorkspace(db, { name: 'bench-exhausted', planId: 'pro' });
    await setWorkspaceLimits(db, exhausted, { monthlyQuota: 1 });
    await reserveQuota(ledger, { workspaceId: exhausted, requestId: newRequestId() });
    const refusedStart = writes.count();
    for (let index = 0; index < sequential; index += 1) {
      if ((await reserveQuota(ledger, { workspaceId: exhausted, requestId: newRequestId() })).ok) throw new Error('expected a refusal');
    }
    log(`ledger: round trips per refused reservation: ${((writes.count() - refusedStart) / sequential).toFixed(2)}`);

    await measure('ledger', reserve, { 'this process': ownCpuMs, mariadbd: mariadb });
    await allowanceCosts(ledger, workspaceId, writes);
  } finally {
    await db.destroy();
  }
}

/** A block of 50 units leased, then its 50 charges settled ten at a time: round trips and p50, per block and per unit. */
async function allowanceCosts(ledger: ReturnType<typeof createLedgerContext>, workspaceId: string, writes: { count(): number }): Promise<void> {
  const BLOCK = 50;
  const BATCH = 10;
  const leaseTimes: number[] = [];
  const settleTimes: number[] = [];
  let leaseTrips = 0;
  let settleTrips = 0;
  let blocks = 0;
  for (let repeat = 0; repeat < 20 * REPEATS; repeat += 1) {
    let trips = writes.count();
    let started = performance.now();
    const lease = await leaseAllowance(ledger, { workspaceId, allowanceId: null, units: BLOCK, leaseMs: 60_000 });
    leaseTimes.push(performance.now() - started);
    leaseTrips += writes.count() - trips;
    if (!lease.ok) throw new Error('a lease was refused: the bench quota is too small');
    blocks += 1;
    for (let start = 0; start < BLOCK; start += BATCH) {
      const charges = Array.from({ length: BATCH }, () => ({ requestId: newRequestId(), allowanceId: lease.allowanceId }));
      trips = writes.count();
      started = performance.now();
      await settleQuotaBatch(ledger, [], [], charges);
      settleTimes.push(performance.now() - started);
      settleTrips += writes.count() - trips;
    }
  }
  const settleBatches = settleTimes.length;
  log(
    `ledger: allowance of ${BLOCK} units: lease p50 ${median(leaseTimes).toFixed(2)} ms, ${(leaseTrips / blocks).toFixed(1)} round trips; ` +
      `its charges settled ${BATCH} at a time: p50 ${median(settleTimes).toFixed(2)} ms, ${(settleTrips / settleBatches).toFixed(1)} round trips a batch; ` +
      `per unit ${((leaseTrips + settleTrips) / (blocks * BLOCK)).toFixed(2)} round trips, off the request path`,
  );
}

async function accountsPart(mariadb: () => number): Promise<void> {
  const bench = await startBenchStack('reserve');
  try {
    const accountsPid = bench.stack.processes.accounts.pid;
    const { workspaceId } = bench;
    const reserve = () => bench.accounts.quota.reserve.mutate({ workspaceId, requestId: newRequestId() });
    await measure('accounts', reserve, { accounts: () => cpuMs(accountsPid), mariadbd: mariadb, 'this process': ownCpuMs });
  } finally {
    await bench.stop();
  }
}

async function main(): Promise<void> {
  const mariadbPid = serverPid('mariadbd') ?? serverPid('mysqld');
  const mariadb = () => cpuMs(mariadbPid);
  log(`reserve-bench: ${REPEATS} repeats of ${SECONDS} s; medians (the machine is shared)`);
  if (PARTS.has('ledger')) await ledgerPart(mariadb);
  if (PARTS.has('accounts')) await accountsPart(mariadb);
}

runBench(main);
