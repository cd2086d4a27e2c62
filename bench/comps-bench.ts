import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compsOfListings, statsItemOf } from '@comps/shared/comps/listing-comps';
import type { ListingRow } from '@comps/shared/contract/listing';
import { createDb } from '@comps/shared/db/create-db';
import { parseSearchPage } from '@comps/shared/market/parse/search-page';
import type { JobsDatabase } from '../services/jobs/src/db/database.js';
import { findJob, insertNewItems, pageRequestId, recordPage } from '../services/jobs/src/jobs/job-repository.js';
import { jobComps } from '../services/jobs/src/jobs/job-stats.js';
import { encodeStatsItem } from '../services/jobs/src/jobs/stats-item-column.js';
import { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import { FIXTURES_DIR } from '../test/helpers/fixtures.js';
import { log, median, resetBenchDatabase, runBench, verdict } from './bench-stack.js';

/**
 * `npm run bench:comps`: what the comps cost. (1) The classification and statistics of a 200-item
 * page (real titles from the saved sold pages) against the parse of a real page, both CPU, medians
 * over many runs in one process (goal: at most 1 ms for the comps). (2) A job's statistics over
 * 20,000 items as a results request computes them when they are not cached (read the compact
 * column, classify nothing, compute the stats and every item's verdict), in its own database (goal:
 * at most 50 ms each, with the process's memory growing less than 20 MB over the runs), and a
 * repeated request of the same job (cached until a page is added).
 */
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? '200');
const JOB_ITEMS = Number(process.env.BENCH_JOB_ITEMS ?? '20000');
const JOB_RUNS = Number(process.env.BENCH_JOB_RUNS ?? '20');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/comps_bench_comps';
const SOLD_PAGES = ['sold_us_scard_vw_beetle.html', 'sold_us_scard_sony_headphones.html', 'sold_us_scard_pokemon_card_bids.html', 'sold_us_scard_ja_ui_pink_floyd.html'];

/** CPU milliseconds of `run` (user + system), which the machine's other load does not inflate much. */
function cpuOf(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Wall milliseconds of `run`, for runs that wait on the database. */
async function wallMs(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function realRows(): ListingRow[] {
  return SOLD_PAGES.flatMap((file) => parseSearchPage(readFileSync(path.join(FIXTURES_DIR, file), 'utf8'), 'market.com').items);
}

async function pageComps(rows: ListingRow[]): Promise<void> {
  const page = rows.slice(0, 200);
  const html = readFileSync(path.join(FIXTURES_DIR, SOLD_PAGES[0]!));
  const context = { keyword: 'sony headphones', site: 'market.com' as const, basis: 'sold' as const, include: [] };
  for (let i = 0; i < 30; i += 1) {
    compsOfListings(page, context);
    parseSearchPage(html, 'market.com');
  }
  const comps: number[] = [];
  const parses: number[] = [];
  // Each comps run is short next to the clock's resolution: ten at a time, divided.
  for (let i = 0; i < ITERATIONS; i += 1) {
    comps.push(cpuOf(() => { for (let k = 0; k < 10; k += 1) compsOfListings(page, context); }) / 10);
    if (i % 10 === 0) parses.push(cpuOf(() => parseSearchPage(html, 'market.com')));
  }
  const compsMs = median(comps);
  const parseMs = median(parses);
  log(`(1) comps of a ${page.length}-item page: ${compsMs.toFixed(3)} ms CPU (median of ${ITERATIONS}); the parse of a ${(html.length / 1e6).toFixed(2)} MB page: ${parseMs.toFixed(2)} ms CPU`);
  log(`    comps / parse = ${(compsMs / parseMs).toFixed(3)}; goal: comps ≤ 1 ms — ${verdict(compsMs <= 1)}`);
}

async function jobStatsOver(rows: ListingRow[]): Promise<void> {
  await resetBenchDatabase(DATABASE_URL);
  const db = createDb<JobsDatabase>({ url: DATABASE_URL, connectionLimit: 4, isolation: 'read committed' });
  try {
    const jobId = randomUUID();
    await db.insertInto('jobs').values({
      id: jobId, workspaceId: 'ws_bench', apiKeyId: null, apiKeyPrefix: null, status: 'completed', stopReason: 'max_pages', keyword: 'sony headphones',
      marketSite: 'market.com', maxPages: 100, count: 200, resultType: 'download', errorCode: null, errorMessage: null, idempotencyKeyHash: null,
      requestFingerprint: 'bench', activeWorkspaceId: null, createdAt: new Date(), startedAt: new Date(), finishedAt: new Date(), expiresAt: null,
    }).execute();
    const { items } = compsOfListings(rows, { keyword: 'sony headphones', site: 'market.com', basis: 'sold', include: [] });
    // Pages of 200 items: the real rows again and again, each copy with its own id and a price moved a little.
    for (let page = 1; page * 200 <= JOB_ITEMS; page += 1) {
      const pageItems = Array.from({ length: 200 }, (_, index) => {
        const base = items[(page * 200 + index) % items.length]!;
        const factor = 0.9 + ((page * 7 + index * 13) % 21) / 100;
        const price = base.price && { ...base.price, value: Math.round(base.price.value * factor * 100) / 100 };
        return { ...base, itemId: String(100_000_000_000 + page * 1000 + index), price, comps: { ...base.comps, unitPrice: price } };
      });
      await pageRequestId(db, jobId, page, `req_bench_${page}`);
      const stored = await insertNewItems(db, jobId, page, pageItems.map((item) => ({ itemId: item.itemId, item: JSON.stringify({ ...item, page }), statsItem: encodeStatsItem(statsItemOf(item, item.comps)) })));
      await recordPage(db, jobId, { page, ...stored, chargePending: { since: new Date(), allowanceId: null } });
    }
    const row = (await findJob(db, jobId))!;
    // A cache that never holds anything: every run computes, as the first request after a page does.
    const uncached = () => new ExpiringMap<Awaited<ReturnType<typeof jobComps>>>(0, 1);
    for (let i = 0; i < 3; i += 1) await jobComps(db, row, uncached(), 0);
    globalThis.gc?.();
    const before = process.memoryUsage();
    const runs: number[] = [];
    const growths: number[] = [];
    for (let i = 0; i < JOB_RUNS; i += 1) {
      // Each request from a collected heap: what it allocates while it runs (nothing is collected in so short a time).
      globalThis.gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      let held: unknown;
      runs.push(await wallMs(async () => (held = await jobComps(db, row, uncached(), 0))));
      growths.push(process.memoryUsage().heapUsed - heapBefore);
      held = undefined;
    }
    globalThis.gc?.();
    const after = process.memoryUsage();
    const medianMs = median(runs);
    const growthMb = median(growths) / 1e6;
    const cache = new ExpiringMap<Awaited<ReturnType<typeof jobComps>>>(60_000, 50);
    const { stats } = await jobComps(db, row, cache, 0);
    const cachedMs = median(await Promise.all(Array.from({ length: JOB_RUNS }, () => wallMs(() => jobComps(db, row, cache, 1)))));
    log(`(2) a job's stats over ${stats.listings} items (${stats.counted} counted): ${medianMs.toFixed(1)} ms a results request (median of ${JOB_RUNS}, wall, database read included); ${cachedMs.toFixed(3)} ms repeated (cached)`);
    log(`    memory: a request's heap grows ${growthMb.toFixed(1)} MB while it runs (median); after the ${JOB_RUNS} runs and a collection rss ${(before.rss / 1e6).toFixed(1)} → ${(after.rss / 1e6).toFixed(1)} MB, heap ${(before.heapUsed / 1e6).toFixed(1)} → ${(after.heapUsed / 1e6).toFixed(1)} MB`);
    log(`    goals: ≤ 50 ms — ${verdict(medianMs <= 50)}; growth < 20 MB — ${verdict(growthMb < 20)}`);
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const rows = realRows();
  log(`${rows.length} real rows from ${SOLD_PAGES.length} saved sold pages`);
  await pageComps(rows);
  await jobStatsOver(rows);
}

runBench(main);
