import { jobPageQuery } from '@comps/shared/contract/job';
import { buildSearchUrl } from '@comps/shared/market/search-url';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMs, log, memoryBreakdown, rssMb, runBench, threadsOf, segmentsSent, stackProcessesOf, startBenchStack, startCpuCount, verdict } from './bench-stack.js';

/**
 * `npm run bench:jobs`: a 100-page job (200 items a page) against the simulator at zero latency,
 * with pages of a real page's size: pages per second, the time from the 202 to the first page
 * readable, and the resident memory of the api and the jobs service while the job's CSV (about
 * 20,000 rows) is downloaded, and 12 s after (once their idle collections have run); and what a page
 * costs: the CPU of every process of the stack a page, the most pages a second that allows, and the
 * round trips a page to MariaDB, Redis, accounts and the simulator; then what a lone page costs the jobs
 * process under light traffic. Everything is measured in this one run.
 *
 * "Zero latency" is taken to mean an upstream that answers at once: the simulator renders the job's
 * pages into its cache before the job starts, so that its own rendering (about 25 ms of CPU a page,
 * on the same two cores) is not counted as the stack's.
 */
const PAGES = Number(process.env.BENCH_PAGES ?? '100');
const DATABASE_PORT = Number(new URL(process.env.BENCH_DATABASE_URL ?? 'mysql://127.0.0.1:3306').port || 3306);
const REDIS_PORT = Number(new URL(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379').port || 6379);

async function main(): Promise<void> {
  const bench = await startBenchStack('jobs', { MARKET_SIM_CACHE_MB: '512' });
  const { stack } = bench;
  try {
    const headers = { authorization: `Bearer ${bench.apiKey}`, 'content-type': 'application/json' };

    const body = { keyword: 'vintage camera sim:total=60000', maxPages: PAGES, count: 200, resultType: 'download' };
    const simSite = `http://127.0.0.1:${stack.ports.marketSim}/market.com`;
    for (let page = 1; page <= PAGES; page += 1) {
      await (await fetch(buildSearchUrl(simSite, jobPageQuery({ ...body, marketSite: 'market.com', statsInclude: [] }, page)))).arrayBuffer();
    }

    // The CPU of every process of the stack from the POST to the read that sees the job ended (the job's
    // reads included), and the jobs and accounts processes' round trips to their servers: what a page
    // costs the machine.
    const cpuSince = startCpuCount(stackProcessesOf(stack));
    const { jobs: jobsProcess, accounts: accountsProcess } = stack.processes;
    const links = [
      ['jobs→mariadb', jobsProcess.pid, DATABASE_PORT],
      ['jobs→redis', jobsProcess.pid, REDIS_PORT],
      ['jobs→accounts', jobsProcess.pid, stack.ports.accountsInternal],
      ['jobs→market-sim', jobsProcess.pid, stack.ports.marketSim],
      ['accounts→mariadb', accountsProcess.pid, DATABASE_PORT],
    ] as const;
    const sentBefore = links.map(([, pid, port]) => segmentsSent(pid, port));
    const jobsThreadBefore = cpuMs(jobsProcess.pid, { mainThreadOnly: true });
    const jobsThreadsBefore = threadsOf(jobsProcess.pid);
    const posted = performance.now();
    const created = await fetch(`${stack.baseUrl}/v1/scrape/max`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const accepted = performance.now();
    const { jobId } = (await created.json()) as { jobId: string };
    let firstPageMs = Number.NaN;
    let job: { status: string; progress: { pagesFetched: number; itemsCollected: number }; startedAt: string | null; finishedAt: string | null };
    // Often until the first page is readable (that time is measured), then once a second: each read of a
    // running job computes its statistics over every item so far in the jobs process, which a tight poll
    // would take from the job it measures.
    for (;;) {
      const response = await fetch(`${stack.baseUrl}/v1/scrape/max/results/${jobId}?limit=1`, { headers });
      job = (await response.json()) as typeof job;
      if (Number.isNaN(firstPageMs) && job.progress.pagesFetched >= 1) firstPageMs = performance.now() - accepted;
      if (['completed', 'failed', 'cancelled'].includes(job.status)) break;
      await sleep(Number.isNaN(firstPageMs) ? 20 : 1000);
    }
    const jobCpu = cpuSince();
    const jobsThreadCpu = cpuMs(jobsProcess.pid, { mainThreadOnly: true }) - jobsThreadBefore;
    const trips = links.map(([name, pid, port], index) => `${name} ${((segmentsSent(pid, port) - sentBefore[index]!) / Math.max(1, job.progress.pagesFetched)).toFixed(1)}`);
    const seconds = (Date.parse(job.finishedAt!) - Date.parse(job.startedAt!)) / 1000;
    const pagesPerSecond = job.progress.pagesFetched / seconds;

    const pids = { api: stack.processes.api.pid, jobs: stack.processes.jobs.pid };
    const before = { api: rssMb(pids.api), jobs: rssMb(pids.jobs) };
    const peak = { ...before };
    const sampler = setInterval(() => {
      peak.api = Math.max(peak.api, rssMb(pids.api));
      peak.jobs = Math.max(peak.jobs, rssMb(pids.jobs));
    }, 25);
    const downloadStarted = performance.now();
    const csv = await fetch(`${stack.baseUrl}/v1/scrape/max/${jobId}/download.csv`, { headers });
    let bytes = 0;
    let rows = 0;
    for await (const chunk of csv.body!) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) rows += 1;
    }
    const downloadMs = performance.now() - downloadStarted;
    clearInterval(sampler);
    // What each holds once idle: after its idle collection (API_IDLE_GC_MS, JOBS_IDLE_GC_MS: 10 s by default).
    await sleep(12_000);
    const idle = { api: rssMb(pids.api), jobs: rssMb(pids.jobs) };
    const jobsIdleBreakdown = await memoryBreakdown(stack.ports.jobsInternal);

    log(`\nA ${job.progress.pagesFetched}-page job, 200 items a page, simulator pages of a real page's size at zero latency, rendered beforehand (${job.status})`);
    log(`pages per second: ${pagesPerSecond.toFixed(1)} (${job.progress.pagesFetched} pages in ${seconds.toFixed(1)} s; goal ≥ 20) ${verdict(pagesPerSecond >= 20)}`);
    log(pageCostLine(jobCpu, jobsThreadCpu, job.progress.pagesFetched));
    log(`round trips a page (data segments sent: a message over 64 KB counts more than once; the job's reads and background work included): ${trips.join(', ')}`);
    log(`202 answered in ${(accepted - posted).toFixed(0)} ms; first page readable ${firstPageMs.toFixed(0)} ms after the 202 (goal ≤ 1000 ms) ${verdict(firstPageMs <= 1000)}`);
    log(`CSV: ${rows - 1} rows, ${(bytes / 1_048_576).toFixed(1)} MB in ${(downloadMs / 1000).toFixed(1)} s`);
    for (const name of ['api', 'jobs'] as const) {
      const growth = peak[name] - before[name];
      log(`${name} resident memory during the download: ${before[name].toFixed(0)} MB before, ${peak[name].toFixed(0)} MB at most: +${growth.toFixed(1)} MB (goal < 50 MB) ${verdict(growth < 50)}; 12 s after it: ${idle[name].toFixed(0)} MB`);
    }
    // The main thread's heap (a parse thread's is its own, and stopped by then), and the process's threads against before the job.
    log(`  jobs 12 s after the download: ${jobsIdleBreakdown}; ${threadsOf(pids.jobs)} threads (${jobsThreadsBefore} before the job)`);

    log(await lonePagesLine(stack.baseUrl, headers, { ...body, maxPages: 1 }, pids.jobs!));
  } finally {
    await bench.stop();
  }
}

/**
 * Light traffic's one-page jobs, the window the jobs process's CPU is counted in from each POST, and the
 * wait after it before the next: the idle moment comes 10 s after the job's last task, some 1 s after its POST.
 */
const LONE_JOBS = 3;
const LONE_WINDOW_MS = 3000;
const IDLE_WAIT_MS = 13_000;

/**
 * Light traffic: one-page jobs, each after the jobs process's idle moment (`JOBS_IDLE_GC_MS`, 10 s by
 * default), as a tracked search's run or a small job comes. The jobs process's CPU (every thread) in a
 * window from each POST against the same window with nothing to do, and how far its threads rose (a
 * parse thread started for a lone page, whose start costs many pages' reads, shows there).
 */
async function lonePagesLine(baseUrl: string, headers: Record<string, string>, body: object, jobsPid: number): Promise<string> {
  const quietBefore = cpuMs(jobsPid);
  await sleep(LONE_WINDOW_MS);
  const quietMs = cpuMs(jobsPid) - quietBefore;
  const costs: string[] = [];
  for (let index = 0; index < LONE_JOBS; index += 1) {
    // The first comes 15 s after the download, past the idle moment already.
    if (index > 0) await sleep(IDLE_WAIT_MS);
    const cpuBefore = cpuMs(jobsPid);
    const threadsBefore = threadsOf(jobsPid);
    let threadsMost = threadsBefore;
    const posted = performance.now();
    const created = await fetch(`${baseUrl}/v1/scrape/max`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (created.status !== 202) throw new Error(`a one-page job was answered ${created.status}: ${await created.text()}`);
    const { jobId } = (await created.json()) as { jobId: string };
    // The job is read once, after the window: reads of a running job cost the jobs process its statistics.
    while (performance.now() - posted < LONE_WINDOW_MS) {
      threadsMost = Math.max(threadsMost, threadsOf(jobsPid));
      await sleep(20);
    }
    const cpuAfter = cpuMs(jobsPid);
    const { status } = (await (await fetch(`${baseUrl}/v1/scrape/max/results/${jobId}?limit=1`, { headers })).json()) as { status: string };
    costs.push(`${cpuAfter - cpuBefore} ms (${status}; threads +${threadsMost - threadsBefore})`);
  }
  return `light traffic, a one-page job after each idle moment: the jobs process's CPU in the ${LONE_WINDOW_MS / 1000} s from its POST ${costs.join(', ')}; with nothing to do ${quietMs} ms in as long`;
}

/**
 * What a page cost each process, and the most pages a second that cost allows: the machine's cores
 * over the whole stack's CPU a page, and one core over the jobs process's main thread's (its pages
 * are read and stored on that thread). The goal of 20 a second needs both ceilings above 20.
 */
function pageCostLine(cpu: ReadonlyArray<readonly [string, number]>, jobsThreadMs: number, pages: number): string {
  const perPage = cpu.map(([name, ms]) => [name, ms / Math.max(1, pages)] as const);
  const total = perPage.reduce((sum, [, ms]) => sum + ms, 0);
  const jobsThread = jobsThreadMs / Math.max(1, pages);
  const cores = availableParallelism();
  return (
    `CPU a page from the POST to the read that saw the end, by process (ms; MariaDB and Redis are the machine's, shared with anything else it runs): ${perPage.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')}; total ${total.toFixed(1)}; the jobs process's main thread ${jobsThread.toFixed(1)}\n` +
    `at that cost the machine's ${cores} cores allow at most ${((cores * 1000) / total).toFixed(1)} pages/s, and the jobs process's main thread ${(1000 / jobsThread).toFixed(1)} ` +
    `(20 a second needs at most ${((cores * 1000) / 20).toFixed(0)} ms of the stack's CPU and 50 of that thread's a page)`
  );
}

runBench(main);
