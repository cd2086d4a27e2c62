import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { WebSocket } from 'undici';
import { freePort } from '@comps/scripts/stack/free-port';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';
import { SAMPLE_QUERY } from '../test/helpers/listing-query.js';
import { log, runBench, stackProcessesOf, startBenchStack, startCpuCount } from './bench-stack.js';
import { selfTimeByPart, type CpuProfile } from './cpu-profile.js';
import { runLoad } from './load.js';

/**
 * `npm run bench:profile`: where a charged search's milliseconds go, in every process, at 1 and at 8
 * callers. The whole stack through Caddy (simulator at zero latency, real-size pages); the api and
 * accounts run with the inspector on a port of their own and are profiled (V8's sampling profiler)
 * over the measured seconds only; the CPU of Caddy, Redis, MariaDB and the simulator comes from
 * /proc. Prints, per search: each process's CPU, and the api's and accounts' self time by part of
 * the program (parsing, comps, metering, Redis client, tRPC, Koa, GC, …).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? '10');
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '1,8').split(',').map(Number);

/** A Node process's inspector: the Chrome DevTools protocol over WebSocket. */
async function inspector(port: number) {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve) => {
      next += 1;
      waiting.set(next, resolve as (result: unknown) => void);
      socket.send(JSON.stringify({ id: next, method, params }));
    });
  return { send, close: () => socket.close() };
}

const fixed = (value: number, width = 7) => value.toFixed(2).padStart(width);

async function profileLevel(concurrency: number): Promise<string[]> {
  const ports = { api: await freePort(), accounts: await freePort() };
  const inspect = (port: number) => ({ NODE_OPTIONS: `--inspect=127.0.0.1:${port}` });
  // The services' modules file by file, not their bundles: the profile then tells each function's module.
  const bench = await startBenchStack('profile', {}, { api: inspect(ports.api), accounts: inspect(ports.accounts) }, true);
  const lines: string[] = [];
  try {
    const { stack } = bench;
    const headers = { authorization: `Bearer ${bench.apiKey}` };
    const url = `${stack.baseUrl}/v1/scrape?keyword=${encodeURIComponent('vintage camera')}&count=${SAMPLE_QUERY.count}`;
    await runLoad(url, { concurrency: Math.max(2, concurrency), seconds: 3, headers });
    const profiled = { api: await inspector(ports.api), accounts: await inspector(ports.accounts) };
    for (const session of Object.values(profiled)) {
      await session.send('Profiler.enable');
      await session.send('Profiler.setSamplingInterval', { interval: 200 });
      await session.send('Profiler.start');
    }
    const cpuSince = startCpuCount(stackProcessesOf(stack));
    const load = await runLoad(url, { concurrency, seconds: SECONDS, headers });
    const cpu = cpuSince().map(([name, value]) => [name, value / Math.max(1, load.requests)] as const);
    const profiles = {
      api: (await profiled.api.send<{ profile: CpuProfile }>('Profiler.stop')).profile,
      accounts: (await profiled.accounts.send<{ profile: CpuProfile }>('Profiler.stop')).profile,
    };
    for (const session of Object.values(profiled)) session.close();
    const dir = path.join(ROOT_DIR, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    for (const [name, profile] of Object.entries(profiles)) writeFileSync(path.join(dir, `profile-${name}-${concurrency}.cpuprofile`), JSON.stringify(profile));

    lines.push(`${concurrency} caller(s): ${load.requests} searches in ${SECONDS} s, ${load.throughput.toFixed(0)}/s, p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms, failures ${load.failures}`);
    lines.push(`  CPU per search (ms), by process: ${cpu.map(([name, value]) => `${name} ${value.toFixed(2)}`).join(', ')} (total ${cpu.reduce((sum, [, value]) => sum + value, 0).toFixed(2)})`);
    for (const [name, profile] of Object.entries(profiles)) {
      const parts = selfTimeByPart(profile);
      const busy = parts.filter((part) => !part.part.startsWith('idle')).reduce((sum, part) => sum + part.ms, 0);
      lines.push(`  ${name}: ${fixed(busy / load.requests, 0)} ms of its thread per search, by part (self time):`);
      for (const part of parts) lines.push(`    ${fixed(part.ms / load.requests)} ms  ${part.part}`);
    }
  } finally {
    await bench.stop();
  }
  return lines;
}

async function main(): Promise<void> {
  const report: string[] = [`Profile of a charged 60-item search through Caddy (simulator at zero latency), ${SECONDS} s per level; the .cpuprofile files are in bench/results/ (open them in Chrome's DevTools)`];
  for (const concurrency of LEVELS) report.push(...(await profileLevel(concurrency)));
  log(`\n${report.join('\n')}`);
}

runBench(main);
