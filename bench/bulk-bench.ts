import { postEventStream } from '../test/helpers/event-stream.js';
import { cpuMs, log, runBench, stackProcessesOf, startBenchStack, startCpuCount, verdict } from './bench-stack.js';

/**
 * `npm run bench:bulk`: a bulk search of 20 keywords through Caddy, the simulator answering each in
 * 500 ms (pages of a real page's size), at workspace concurrency 1, 5 and 20: the total time against
 * the ideal (ceil(20 / concurrency) × 500 ms) and the time to the first event; the CPU of the api's
 * main thread and of the whole stack during each call, and what the api's thread alone allows at the
 * last level, where the pages arrive together. Measured in one run.
 */
const LATENCY_MS = 500;
const KEYWORDS = 20;
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '1,5,20').split(',').map(Number);

async function main(): Promise<void> {
  const bench = await startBenchStack('bulk', { MARKET_SIM_LATENCY_MS: String(LATENCY_MS) });
  const { stack, accounts, workspaceId, apiKey } = bench;
  try {
    const keywords = Array.from({ length: KEYWORDS }, (_, i) => `bulk keyword ${i}`);
    await (await postEventStream(`${stack.baseUrl}/api/bulk-search`, { apiKey, body: { keywords, count: 60 } })).done;

    log(`\nA bulk search of ${KEYWORDS} keywords through Caddy, the simulator answering each in ${LATENCY_MS} ms`);
    log('concurrency |   total ms   ideal ms   total/ideal | first event ms | results | api thread CPU ms | stack CPU ms');
    const apiPid = stack.processes.api.pid;
    let lastApiThreadMs = 0;
    let lastIdeal = 0;
    let lastStackCpu: ReadonlyArray<readonly [string, number]> = [];
    for (const concurrency of LEVELS) {
      await accounts.workspaces.setLimits.mutate({ workspaceId, concurrency });
      // Limits reach the api within its key cache's life.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const cpuSince = startCpuCount(stackProcessesOf(stack));
      const apiThreadBefore = cpuMs(apiPid, { mainThreadOnly: true });
      const started = performance.now();
      const call = await postEventStream(`${stack.baseUrl}/api/bulk-search`, { apiKey, body: { keywords, count: 60 } });
      await call.done;
      const total = performance.now() - started;
      const stackCpu = cpuSince();
      const stackMs = stackCpu.reduce((sum, [, ms]) => sum + ms, 0);
      const apiThreadMs = cpuMs(apiPid, { mainThreadOnly: true }) - apiThreadBefore;
      const ideal = Math.ceil(KEYWORDS / concurrency) * LATENCY_MS;
      const first = call.events[0]?.at ?? Number.NaN;
      const results = call.events.filter((event) => event.event === 'result').length;
      log(
        `${String(concurrency).padStart(11)} | ${total.toFixed(0).padStart(10)} ${String(ideal).padStart(10)} ${(total / ideal).toFixed(2).padStart(13)} ${verdict(total / ideal <= 1.3).padStart(8)} | ${first.toFixed(1).padStart(8)} ${verdict(first <= 50).padStart(7)} | ${results}/${KEYWORDS} | ${apiThreadMs.toFixed(0).padStart(17)} | ${stackMs.toFixed(0).padStart(12)}`,
      );
      lastApiThreadMs = apiThreadMs;
      lastIdeal = ideal;
      lastStackCpu = stackCpu;
    }
    log('goals: total within 1.3 times the ideal at every level; the first event within 50 ms');
    // At the last level every page arrives at about the same time, and the api reads them on its one
    // thread: its CPU then bounds the total from below, whatever the schedule.
    log(
      `at concurrency ${LEVELS.at(-1)} the pages arrive together after ${LATENCY_MS} ms and the api's main thread spent ${lastApiThreadMs.toFixed(0)} ms of CPU on the call: ` +
        `one thread cannot finish before ${((lastIdeal + lastApiThreadMs) / lastIdeal).toFixed(2)} times the ideal (goal 1.3 leaves ${(0.3 * lastIdeal).toFixed(0)} ms)`,
    );
    log(`its CPU by process (ms): ${lastStackCpu.filter(([, ms]) => ms > 0).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ')}`);
  } finally {
    await bench.stop();
  }
}

runBench(main);
