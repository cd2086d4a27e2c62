import type { MarketSite } from '@comps/shared/contract/market-sites';
import { createLogger } from '@comps/shared/logging/create-logger';
import type { FetchedPage } from '@comps/shared/market/fetch/fetch-page';
import { PageBytes } from '@comps/shared/market/fetch/page-bytes';
import { callingThreadReader, type SearchAnswerReader } from '@comps/shared/market/market-client';
import { ParseThreads } from '@comps/shared/market/parse-threads';
import type { PageReading } from '@comps/shared/runtime/native-helper';
import { median } from './bench-stack.js';

/**
 * Whether parse threads (`ParseThreads`, as the services run them) help where pages arrive together
 * (bench:bulk at concurrency 20: twenty pages at once): a burst of pages read one after another on the
 * calling thread, against the same burst read by one and by two threads (each page's chunks joined and
 * moved there, as the api's are, its parsed page cloned back), after warm-up bursts that let V8 optimize the parser in each.
 * Two threads against one shows what the machine's cores give when both parse (0.5: all of it).
 */
const BURSTS = Number(process.env.BENCH_BURSTS ?? '15');
const WARM_UP_BURSTS = 8;
/** What one read of a socket gives Node (libuv's suggested size). */
const SOCKET_READ_BYTES = 64 * 1024;

export interface ParseThreadsFigures {
  pages: number;
  /** Median wall time of the burst on the calling thread, and over one and two threads. */
  mainMs: number;
  oneThreadMs: number;
  twoThreadsMs: number;
}

/** A page's bytes copied, in the chunks a socket reads them in (64 KB each; each its own buffer), as the services get them. */
function chunksOf(page: Buffer): Buffer[] {
  return Array.from({ length: Math.ceil(page.length / SOCKET_READ_BYTES) }, (_, index) => Buffer.from(page.subarray(index * SOCKET_READ_BYTES, (index + 1) * SOCKET_READ_BYTES)));
}

/** The burst on the calling thread against one and two parse threads, taken in turns. */
export async function measureParseThreads(pages: Buffer[], site: MarketSite, pageReading: PageReading | undefined): Promise<ParseThreadsFigures> {
  const logger = createLogger('bench', 'silent');
  const callingThread = callingThreadReader(undefined, pageReading?.oneByteText);
  const one = new ParseThreads({ count: 1, logger, callingThread, joinBytes: pageReading?.joinBytes });
  const two = new ParseThreads({ count: 2, logger, callingThread, joinBytes: pageReading?.joinBytes });
  // A read takes the body it is given: each burst gets copies, made before it is timed, in the 64 KB chunks a socket reads a page in.
  const answersOf = (): FetchedPage[] => pages.map((page) => ({ status: 200, body: PageBytes.of(chunksOf(page)), url: 'https://www.market.test/sch/i.html', retryAfterSeconds: null, elapsedMs: 0 }));
  try {
    // The calling thread's reader reads each page as it is handed it: the burst is read one page after another.
    const burst = async (reader: SearchAnswerReader) => {
      const answers = answersOf();
      const started = performance.now();
      await Promise.all(answers.map((answer) => reader.read(answer, site)));
      return performance.now() - started;
    };
    // Pages that find no thread ready are read on the calling thread (the threads' figures would be its own), and
    // a thread says it is ready between tasks, which bursts read on the calling thread leave no room for: bursts
    // with pauses until every thread is ready (two's second starts once its first is ready and busy), then the warm-up.
    for (const started = performance.now(); one.ready < 1 || two.ready < 2; ) {
      if (performance.now() - started > 30_000) throw new Error(`parse threads not ready after 30 s: ${one.ready} of 1, ${two.ready} of 2`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await burst(one);
      await burst(two);
    }
    for (let i = 0; i < WARM_UP_BURSTS; i += 1) {
      await burst(callingThread);
      await burst(one);
      await burst(two);
    }
    const times = { main: [] as number[], one: [] as number[], two: [] as number[] };
    for (let i = 0; i < BURSTS; i += 1) {
      times.main.push(await burst(callingThread));
      times.one.push(await burst(one));
      times.two.push(await burst(two));
    }
    return { pages: pages.length, mainMs: median(times.main), oneThreadMs: median(times.one), twoThreadsMs: median(times.two) };
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
}
