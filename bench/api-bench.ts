import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AccountsRouter } from '@comps/accounts/trpc-router';
import { createRawDb, splitDatabaseUrl } from '@comps/shared/db/create-db';
import { migrateToLatest } from '@comps/shared/db/migrate';
import { freePort } from '@comps/scripts/stack/free-port';
import { launchStack, ROOT_DIR } from '@comps/scripts/stack/launch-stack';
import { ManagedProcess } from '@comps/scripts/stack/managed-process';
import { sql } from 'kysely';
import { runLoad, type LoadResult } from './load.js';

/**
 * `npm run bench:api`: the whole stack through Caddy, the simulator at zero latency, a charged
 * 60-item search at increasing concurrency; beside it, the floor: a bare Koa app sending the same
 * bytes through the same Caddy. Prints throughput and p50/p99, the ratio to the floor, the service
 * overhead (p50 minus the upstream's own time) and the api's memory after 10,000 requests.
 */
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,4,16,64').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? '5');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/comps_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const log = (line = '') => process.stdout.write(`${line}\n`);
const ms = (value: number) => value.toFixed(2).padStart(8);

/** CPU time (user + system) of a process so far, in ms, from /proc. */
function cpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<void> {
  const { serverUrl, database } = splitDatabaseUrl(DATABASE_URL);
  const server = createRawDb({ url: serverUrl, connectionLimit: 1 });
  await sql`DROP DATABASE IF EXISTS ${sql.id(database)}`.execute(server);
  await server.destroy();
  await migrateToLatest(DATABASE_URL);

  const resultsDir = path.join(ROOT_DIR, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const internalToken = 'bench-token-bench-token-bench-token-00';
  const stack = await launchStack({
    env: {
      DATABASE_URL,
      REDIS_URL,
      REDIS_KEY_PREFIX: `bench:${Date.now()}:`,
      INTERNAL_TOKEN: internalToken,
      LOG_LEVEL: 'warn',
      UPSTREAM_CALLS_PER_SECOND: '1000000',
      UPSTREAM_MAX_IN_FLIGHT: '10000',
      MARKET_SIM_LATENCY_MS: '0',
    },
    output: 'inherit',
  });
  const stops: Array<() => Promise<unknown>> = [() => stack.stop()];
  try {
    const accounts = createTRPCClient<AccountsRouter>({
      links: [httpLink({ url: `http://127.0.0.1:${stack.ports.accountsInternal}/trpc`, headers: { 'x-internal-token': internalToken } })],
    });
    const { workspaceId, apiKey } = await accounts.workspaces.create.mutate({ name: 'bench', planId: 'pro' });
    await accounts.workspaces.setLimits.mutate({ workspaceId, monthlyQuota: 100_000_000, rateLimit: 100_000_000, concurrency: 10_000 });
    const headers = { authorization: `Bearer ${apiKey.key}` };
    const searchUrl = `${stack.baseUrl}/v1/scrape?keyword=vintage+camera+sim:total=5000&count=60`;

    // Warm both paths (JIT, connection pools), then capture the body the floor will send.
    await runLoad(searchUrl, { concurrency: 4, seconds: 2, headers });
    const probe = await runLoad(searchUrl, { concurrency: 1, seconds: 0.5, headers });
    const bodyFile = path.join(resultsDir, 'floor-body.json');
    writeFileSync(bodyFile, probe.sample ?? '{}');
    const items = (JSON.parse(probe.sample ?? '{"items":[]}') as { items: unknown[] }).items.length;

    const floorPort = await freePort();
    const publicPort = await freePort();
    const floor = new ManagedProcess({
      name: 'floor',
      command: process.execPath,
      args: ['--import', 'tsx', path.join(ROOT_DIR, 'bench', 'floor-server.ts')],
      env: { PATH: process.env.PATH ?? '', PORT: String(floorPort), BODY_FILE: bodyFile },
      cwd: ROOT_DIR,
      output: 'inherit',
      readyUrl: `http://127.0.0.1:${floorPort}/`,
    });
    await floor.start();
    stops.unshift(() => floor.stop());
    const floorCaddy = new ManagedProcess({
      name: 'caddy-floor',
      command: process.env.CADDY_BIN ?? 'caddy',
      args: ['run', '--config', path.join(ROOT_DIR, 'proxy', 'Caddyfile'), '--adapter', 'caddyfile'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(publicPort), API_UPSTREAM: `127.0.0.1:${floorPort}`, ACCOUNTS_PUBLIC_UPSTREAM: `127.0.0.1:${floorPort}` },
      cwd: ROOT_DIR,
      output: 'inherit',
      readyUrl: `http://127.0.0.1:${publicPort}/`,
    });
    await floorCaddy.start();
    stops.unshift(() => floorCaddy.stop());
    const floorUrl = `http://127.0.0.1:${publicPort}/v1/scrape?keyword=vintage+camera+sim:total=5000&count=60`;
    await runLoad(floorUrl, { concurrency: 4, seconds: 1 });

    log(`\nCharged search of ${items} items through Caddy (simulator at zero latency), ${SECONDS} s per level, ${CONCURRENCY.join('/')} callers`);
    log('callers |   stack req/s      p50      p99 |   floor req/s      p50      p99 | stack/floor | failures');
    const rows: Array<{ stack: LoadResult; floor: LoadResult }> = [];
    let upstreamMs: number[] = [];
    const processes = Object.entries(stack.processes).map(([name, child]) => [name, child.pid] as const);
    let cpuSplit: Array<[string, number]> = [];
    for (const concurrency of CONCURRENCY) {
      const cpuBefore = processes.map(([, pid]) => cpuMs(pid));
      const stackResult = await runLoad(searchUrl, { concurrency, seconds: SECONDS, headers });
      if (concurrency === CONCURRENCY.at(-1)) {
        cpuSplit = processes.map(([name, pid], index) => [name, (cpuMs(pid) - cpuBefore[index]!) / Math.max(1, stackResult.requests)]);
      }
      const floorResult = await runLoad(floorUrl, { concurrency, seconds: SECONDS });
      rows.push({ stack: stackResult, floor: floorResult });
      log(
        `${String(concurrency).padStart(7)} | ${stackResult.throughput.toFixed(0).padStart(13)} ${ms(stackResult.p50)} ${ms(stackResult.p99)} | ${floorResult.throughput.toFixed(0).padStart(13)} ${ms(floorResult.p50)} ${ms(floorResult.p99)} | ${(stackResult.throughput / floorResult.throughput * 100).toFixed(0).padStart(10)}% | ${stackResult.failures}`,
      );
      if (concurrency === CONCURRENCY[0]) {
        // The upstream's own time, as the api measured it, at the lowest load.
        const samples: number[] = [];
        for (let i = 0; i < 100; i += 1) {
          const response = await fetch(searchUrl, { headers });
          samples.push(((await response.json()) as { source: { upstreamMs: number } }).source.upstreamMs);
        }
        upstreamMs = samples.sort((a, b) => a - b);
      }
    }

    const sent = rows.reduce((sum, row) => sum + row.stack.requests, 0) + 100;
    if (sent < 10_000) await runLoad(searchUrl, { concurrency: 16, seconds: 600, headers, maxRequests: 10_000 - sent });
    const rss = rssMb(stack.processes.api.pid);

    const low = rows[0]!.stack;
    const upstreamP50 = upstreamMs[Math.floor(upstreamMs.length / 2)] ?? 0;
    const overhead = low.p50 - upstreamP50;
    const best = rows.reduce((top, row) => (row.stack.throughput > top.stack.throughput ? row : top));
    const ratio = best.stack.throughput / best.floor.throughput;
    log('');
    log(`best throughput: stack ${best.stack.throughput.toFixed(0)} req/s at ${best.stack.concurrency} callers vs floor ${best.floor.throughput.toFixed(0)} req/s: ${(ratio * 100).toFixed(0)}% of the floor (goal ≥ 40%) ${ratio >= 0.4 ? 'MET' : 'NOT MET'}`);
    log(`service overhead at ${low.concurrency} caller: p50 ${low.p50.toFixed(2)} ms − upstream p50 ${upstreamP50} ms = ${overhead.toFixed(2)} ms (goal < 5 ms) ${overhead < 5 ? 'MET' : 'NOT MET'}`);
    log(`api memory after ${Math.max(sent, 10_000)} requests: ${rss.toFixed(0)} MB resident`);
    log(`CPU per request at ${CONCURRENCY.at(-1)} callers (MariaDB and Redis not counted): ${cpuSplit.map(([name, value]) => `${name} ${value.toFixed(2)} ms`).join(', ')}`);
    writeFileSync(
      path.join(resultsDir, `api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
      JSON.stringify({ items, seconds: SECONDS, cpuMsPerRequest: Object.fromEntries(cpuSplit), rows: rows.map(({ stack: s, floor: f }) => ({ ...s, sample: undefined, floor: { ...f, sample: undefined } })), upstreamP50, overhead, ratio, rssMb: rss }, null, 2),
    );
  } finally {
    for (const stop of stops) await stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
