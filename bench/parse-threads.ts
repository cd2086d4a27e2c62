import { Worker } from 'node:worker_threads';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { parseSearchPage } from '@comps/shared/market/parse/search-page';
import { median } from './bench-stack.js';

/**
 * Whether parse threads would help where pages arrive together (bench:bulk at concurrency 20: twenty
 * pages at once): a burst of pages parsed one after another on the calling thread, against the same
 * burst spread over a pool of warm worker threads (each thread's parser optimized by a warm-up first,
 * each page's bytes moved to its thread, its parsed page cloned back, as a pool in the api would).
 * Also each page's parse inside the threads, timed there: one thread alone against two at once
 * shows what the machine's cores give when both parse.
 */
const BURSTS = Number(process.env.BENCH_BURSTS ?? '15');
const WARM_UP_BURSTS = 8;

/** A worker that parses the pages it is sent and answers each with the parsed page and its parse time. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.parser).then(({ parseSearchPage }) => {
  parentPort.on('message', ({ id, bytes }) => {
    const started = performance.now();
    const page = parseSearchPage(Buffer.from(bytes), workerData.site);
    parentPort.postMessage({ id, page, parseMs: performance.now() - started });
  });
  parentPort.postMessage('ready');
});`;

interface Pool {
  /** Parses the pages round robin over the threads; what each page's parse took inside its thread. */
  burst(pages: Buffer[]): Promise<number[]>;
  close(): Promise<void>;
}

async function startPool(threads: number, site: MarketSite): Promise<Pool> {
  const parser = import.meta.resolve('@comps/shared/market/parse/search-page');
  const workers = Array.from({ length: threads }, () => new Worker(WORKER_SOURCE, { eval: true, workerData: { parser, site } }));
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
  const waiting = new Map<number, (parseMs: number) => void>();
  for (const worker of workers) worker.on('message', (message: { id: number; parseMs: number }) => waiting.get(message.id)?.(message.parseMs));
  let nextId = 0;
  const parseIn = (worker: Worker, page: Buffer) =>
    new Promise<number>((resolve) => {
      const id = nextId++;
      waiting.set(id, (parseMs) => {
        waiting.delete(id);
        resolve(parseMs);
      });
      // The fetch's body becomes the thread's: copied once here (a Buffer may share its pool's memory), then moved.
      const bytes = new Uint8Array(page);
      worker.postMessage({ id, bytes }, [bytes.buffer]);
    });
  return {
    burst: (pages) => Promise.all(pages.map((page, index) => parseIn(workers[index % threads]!, page))),
    close: async () => {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

export interface ParseThreadsFigures {
  pages: number;
  /** Median wall time of the burst on the calling thread, and over pools of 1 and 2 threads. */
  mainMs: number;
  oneThreadMs: number;
  twoThreadsMs: number;
  /** Median parse of a page inside the threads: one thread parsing alone, and two at once. */
  pageInOneMs: number;
  pageInTwoMs: number;
}

/** The burst on the calling thread against pools of one and two warm threads, taken in turns. */
export async function measureParseThreads(pages: Buffer[], site: MarketSite): Promise<ParseThreadsFigures> {
  const one = await startPool(1, site);
  const two = await startPool(2, site);
  try {
    const onMain = () => {
      const started = performance.now();
      for (const page of pages) parseSearchPage(page, site);
      return performance.now() - started;
    };
    const inPool = async (pool: Pool) => {
      const started = performance.now();
      const parseMs = await pool.burst(pages);
      return { wallMs: performance.now() - started, parseMs };
    };
    for (let i = 0; i < WARM_UP_BURSTS; i += 1) {
      onMain();
      await inPool(one);
      await inPool(two);
    }
    const times = { main: [] as number[], one: [] as number[], two: [] as number[], pageInOne: [] as number[], pageInTwo: [] as number[] };
    for (let i = 0; i < BURSTS; i += 1) {
      times.main.push(onMain());
      const alone = await inPool(one);
      times.one.push(alone.wallMs);
      times.pageInOne.push(...alone.parseMs);
      const together = await inPool(two);
      times.two.push(together.wallMs);
      times.pageInTwo.push(...together.parseMs);
    }
    return {
      pages: pages.length,
      mainMs: median(times.main),
      oneThreadMs: median(times.one),
      twoThreadsMs: median(times.two),
      pageInOneMs: median(times.pageInOne),
      pageInTwoMs: median(times.pageInTwo),
    };
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
}
