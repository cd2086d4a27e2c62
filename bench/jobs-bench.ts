import { jobPageQuery } from '@comps/shared/contract/job';
import { buildSearchUrl } from '@comps/shared/market/search-url';
import { log, rssMb, runBench, startBenchStack, verdict } from './bench-stack.js';

/**
 * `npm run bench:jobs`: a 100-page job (200 items a page) against the simulator at zero latency,
 * with pages of a real page's size: pages per second, the time from the 202 to the first page
 * readable, and the resident memory of the api and the jobs service while the job's CSV (about
 * 20,000 rows) is downloaded, and 12 s after (once their idle collections have run). Everything is
 * measured in this one run.
 *
 * "Zero latency" is taken to mean an upstream that answers at once: the simulator renders the job's
 * pages into its cache before the job starts, so that its own rendering (about 25 ms of CPU a page,
 * on the same two cores) is not counted as the stack's.
 */
const PAGES = Number(process.env.BENCH_PAGES ?? '100');

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
      await new Promise((resolve) => setTimeout(resolve, Number.isNaN(firstPageMs) ? 20 : 1000));
    }
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
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const idle = { api: rssMb(pids.api), jobs: rssMb(pids.jobs) };

    log(`\nA ${job.progress.pagesFetched}-page job, 200 items a page, simulator pages of a real page's size at zero latency, rendered beforehand (${job.status})`);
    log(`pages per second: ${pagesPerSecond.toFixed(1)} (${job.progress.pagesFetched} pages in ${seconds.toFixed(1)} s; goal ≥ 20) ${verdict(pagesPerSecond >= 20)}`);
    log(`202 answered in ${(accepted - posted).toFixed(0)} ms; first page readable ${firstPageMs.toFixed(0)} ms after the 202 (goal ≤ 1000 ms) ${verdict(firstPageMs <= 1000)}`);
    log(`CSV: ${rows - 1} rows, ${(bytes / 1_048_576).toFixed(1)} MB in ${(downloadMs / 1000).toFixed(1)} s`);
    for (const name of ['api', 'jobs'] as const) {
      const growth = peak[name] - before[name];
      log(`${name} resident memory during the download: ${before[name].toFixed(0)} MB before, ${peak[name].toFixed(0)} MB at most: +${growth.toFixed(1)} MB (goal < 50 MB) ${verdict(growth < 50)}; 12 s after it: ${idle[name].toFixed(0)} MB`);
    }
  } finally {
    await bench.stop();
  }
}

runBench(main);
