import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSearchUrl } from '@comps/shared/market/search-url';
import { freePort } from '@comps/scripts/stack/free-port';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';
import { ManagedProcess } from '@comps/scripts/stack/managed-process';
import { SAMPLE_QUERY } from '../test/helpers/listing-query.js';
import { log, memoryBreakdown, rssMb, runBench, segmentsSent, stackProcessesOf, startBenchStack, startCpuCount, verdict, type MeasuredProcess } from './bench-stack.js';
import { runLoad, type LoadResult } from './load.js';

/**
 * `npm run bench:api`: the whole stack through Caddy (the simulator at zero latency, pages of a real
 * page's size), a charged 60-item search at 1, 8 and 32 callers; beside it, the work floor: a bare
 * server behind the same Caddy that fetches the same simulator page, tokenizes it and answers a body
 * of the same size. Prints throughput, p50 and p99 of both, their ratio, the overhead (stack p50
 * minus floor p50 at one caller), CPU per request of every process, and the api's resident memory
 * after 10,000 searches at up to 8 callers (before any higher level), as the load stops and once the
 * api has been idle for 12 s (its idle collection, API_IDLE_GC_MS, has run), and after every level.
 * Everything is measured in this one run.
 */
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,8,32').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? '10');
const TOTAL_REQUESTS = 10_000;
/** Long enough for the api's idle collection (API_IDLE_GC_MS, 10 s by default) to have run. */
const IDLE_WAIT_MS = 12_000;

const ms = (value: number) => value.toFixed(2).padStart(8);

/** A process's messages to a server (see segmentsSent), named for the report. */
type Link = [name: string, pid: number | undefined, port: number];

async function measure(url: string, concurrency: number, headers: Record<string, string>, processes: MeasuredProcess[], links: Link[] = []) {
  const cpuSince = startCpuCount(processes);
  const sentBefore = links.map(([, pid, port]) => segmentsSent(pid, port));
  const result = await runLoad(url, { concurrency, seconds: SECONDS, headers });
  const perRequest = (value: number) => value / Math.max(1, result.requests);
  const cpu = cpuSince().map(([name, value]) => [name, perRequest(value)] as const);
  const trips = links.map(([name, pid, port], index) => [name, perRequest(segmentsSent(pid, port) - sentBefore[index]!)] as const);
  return { result, cpu, trips };
}

async function main(): Promise<void> {
  const bench = await startBenchStack('api');
  const { stack } = bench;
  const stops: Array<() => Promise<unknown>> = [() => bench.stop()];
  try {
    const resultsDir = path.join(ROOT_DIR, 'bench', 'results');
    mkdirSync(resultsDir, { recursive: true });
    const headers = { authorization: `Bearer ${bench.apiKey}` };
    // An ordinary sold search of 60 items, as most callers make.
    const query = { ...SAMPLE_QUERY, keyword: 'vintage camera' };
    const searchUrl = `${stack.baseUrl}/v1/scrape?keyword=${encodeURIComponent(query.keyword!)}&count=${query.count}`;
    const pageUrl = buildSearchUrl(`http://127.0.0.1:${stack.ports.marketSim}/${query.marketSite}`, query);

    // Warm both paths (JIT, connection pools, the simulator's page cache), then capture the body the floor will send.
    await runLoad(searchUrl, { concurrency: 4, seconds: 2, headers });
    const probe = await runLoad(searchUrl, { concurrency: 1, seconds: 0.5, headers });
    const bodyFile = path.join(resultsDir, 'floor-body.json');
    writeFileSync(bodyFile, probe.sample ?? '{}');
    const items = (JSON.parse(probe.sample ?? '{"items":[]}') as { items: unknown[] }).items.length;
    const pageBytes = Buffer.byteLength(await (await fetch(pageUrl)).text());

    const floorPort = await freePort();
    const publicPort = await freePort();
    const floor = new ManagedProcess({
      name: 'floor',
      command: process.execPath,
      args: ['--import', 'tsx', path.join(ROOT_DIR, 'bench', 'floor-server.ts')],
      env: { PATH: process.env.PATH ?? '', PORT: String(floorPort), BODY_FILE: bodyFile, PAGE_URL: pageUrl },
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
    const floorUrl = `http://127.0.0.1:${publicPort}/v1/scrape`;
    await runLoad(floorUrl, { concurrency: 4, seconds: 2 });

    const stackProcesses = stackProcessesOf(stack);
    const apiPid = stack.processes.api.pid;
    const redisPort = Number(new URL(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379').port || 6379);
    const links: Link[] = [['api→redis', apiPid, redisPort], ['api→accounts', apiPid, stack.ports.accountsInternal]];
    const floorProcesses: MeasuredProcess[] = [['floor', floor.pid], ['caddy', floorCaddy.pid], ['market-sim', stack.processes['market-sim'].pid]];

    log(`\nCharged search of ${items} items through Caddy; simulator page ${(pageBytes / 1024).toFixed(0)} KB at zero latency; ${SECONDS} s per level`);
    log('callers |   stack req/s      p50      p99 |   floor req/s      p50      p99 | stack/floor | failures');
    type Figures = ReadonlyArray<readonly [string, number]>;
    const rows: Array<{ concurrency: number; stack: LoadResult; floor: LoadResult; stackCpu: Figures; floorCpu: Figures; trips: Figures }> = [];
    // The memory goal is the api's after 10,000 searches at 8 callers: read once the levels up to 8 and a
    // top-up at 8 made that many, before a higher level raises the peak (its figure is printed too).
    let sent = 0;
    let rss = Number.NaN;
    let breakdown = '';
    let rssIdle = Number.NaN;
    let breakdownIdle = '';
    let searchesBeforeMemory = 0;
    const memoryAfterTenThousand = async () => {
      if (sent < TOTAL_REQUESTS) sent += (await runLoad(searchUrl, { concurrency: 8, seconds: 600, headers, maxRequests: TOTAL_REQUESTS - sent })).requests;
      searchesBeforeMemory = sent;
      rss = rssMb(stack.processes.api.pid);
      breakdown = await memoryBreakdown(stack.ports.apiInternal);
      // What the api holds once the load has stopped: after its idle collection.
      await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS));
      rssIdle = rssMb(stack.processes.api.pid);
      breakdownIdle = await memoryBreakdown(stack.ports.apiInternal);
    };
    for (const concurrency of CONCURRENCY) {
      if (concurrency > 8 && Number.isNaN(rss)) await memoryAfterTenThousand();
      const stackRun = await measure(searchUrl, concurrency, headers, stackProcesses, links);
      const floorRun = await measure(floorUrl, concurrency, {}, floorProcesses);
      rows.push({ concurrency, stack: stackRun.result, floor: floorRun.result, stackCpu: stackRun.cpu, floorCpu: floorRun.cpu, trips: stackRun.trips });
      sent += stackRun.result.requests;
      const { result: s } = stackRun;
      const { result: f } = floorRun;
      log(
        `${String(concurrency).padStart(7)} | ${s.throughput.toFixed(0).padStart(13)} ${ms(s.p50)} ${ms(s.p99)} | ${f.throughput.toFixed(0).padStart(13)} ${ms(f.p50)} ${ms(f.p99)} | ${((s.throughput / f.throughput) * 100).toFixed(0).padStart(10)}% | ${s.failures}`,
      );
    }
    log('\nCPU per request (ms), by process:');
    for (const row of rows) {
      const format = (cpu: ReadonlyArray<readonly [string, number]>) => cpu.map(([name, value]) => `${name} ${value.toFixed(2)}`).join(', ');
      log(`  ${String(row.concurrency).padStart(2)} callers  stack: ${format(row.stackCpu)} (total ${row.stackCpu.reduce((sum, [, value]) => sum + value, 0).toFixed(2)})`);
      log(`             floor: ${format(row.floorCpu)} (total ${row.floorCpu.reduce((sum, [, value]) => sum + value, 0).toFixed(2)})`);
    }

    log('\nRound trips per request (messages the api sent, background work included):');
    for (const row of rows) log(`  ${String(row.concurrency).padStart(2)} callers  ${row.trips.map(([name, value]) => `${name} ${value.toFixed(2)}`).join(', ')}`);

    if (Number.isNaN(rss)) await memoryAfterTenThousand();
    const rssAtEnd = rssMb(stack.processes.api.pid);

    const one = rows.find((row) => row.concurrency === 1);
    const eight = rows.find((row) => row.concurrency === 8);
    const overhead = one ? one.stack.p50 - one.floor.p50 : Number.NaN;
    const ratioAt8 = eight ? eight.stack.throughput / eight.floor.throughput : Number.NaN;
    log('');
    log(`throughput at 8 callers: stack ${eight?.stack.throughput.toFixed(0)} req/s vs floor ${eight?.floor.throughput.toFixed(0)} req/s = ${(ratioAt8 * 100).toFixed(0)}% of the floor (goal ≥ 80%) ${verdict(ratioAt8 >= 0.8)}`);
    log(`overhead at 1 caller: stack p50 ${one?.stack.p50.toFixed(2)} ms − floor p50 ${one?.floor.p50.toFixed(2)} ms = ${overhead.toFixed(2)} ms (goal ≤ 2 ms) ${verdict(overhead <= 2)}`);
    log(
      `api resident memory after ${searchesBeforeMemory} searches at up to 8 callers (and the warm-up), ${IDLE_WAIT_MS / 1000} s after the load stopped: ${rssIdle.toFixed(0)} MB (goal ≤ 150 MB) ${verdict(rssIdle <= 150)}; as the load stopped: ${rss.toFixed(0)} MB; after every level (the floor's last one included, the api idle meanwhile): ${rssAtEnd.toFixed(0)} MB`,
    );
    log(`  as the load stopped: ${breakdown}`);
    log(`  ${IDLE_WAIT_MS / 1000} s later: ${breakdownIdle}`);
    writeFileSync(
      path.join(resultsDir, `api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
      JSON.stringify({ items, pageBytes, seconds: SECONDS, rows: rows.map((row) => ({ ...row, stack: { ...row.stack, sample: undefined }, floor: { ...row.floor, sample: undefined } })), overhead, ratioAt8, rssMb: rss, rssMbIdle: rssIdle, rssMbAtEnd: rssAtEnd }, null, 2),
    );
  } finally {
    for (const stop of stops) await stop();
  }
}

runBench(main);
