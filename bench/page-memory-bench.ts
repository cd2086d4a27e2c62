import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PageFetcher } from '@comps/shared/market/fetch/fetch-page';
import { PageText } from '@comps/shared/market/parse/page-text';
import type { OneByteText } from '@comps/shared/runtime/one-byte-text';
import { parseSearchPage } from '@comps/shared/market/parse/search-page';
import { freePort } from '@comps/scripts/stack/free-port';
import { FIXTURES_DIR } from '../test/helpers/fixtures.js';
import { log, runBench } from './bench-stack.js';
import { servicesPageText } from './services-page-text.js';

/**
 * `npm run bench:page-memory`: what reading pages alone holds in memory, without the rest of the
 * api. A real saved results page (1.27 MB) is served by a separate process; this process fetches it
 * with the services' `PageFetcher`, parses it with `parseSearchPage` and serializes the result,
 * `BENCH_ITERATIONS` times with `BENCH_CONCURRENCY` in flight, as the api does under load. Then its
 * memory as the run left it, and again after a full garbage collection: the difference is garbage
 * that only a full collection frees (each page's text is an external string, which V8 keeps in its
 * old generation, and page buffers that outlived two young collections).
 *
 * `BENCH_READ` says how far each page is read, to tell what holds the memory: `parse` (the
 * default: fetched, parsed, serialized), `text` (fetched and made the one-byte text the parser
 * scans, `PageText`, not parsed) or `bytes` (fetched only): what a reader that never made a
 * page-sized string (its rows decoded one by one) would hold at most is between `bytes` and `parse`.
 */
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? '3000');
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? '8');
const PAGE = process.env.BENCH_PAGE ?? 'sold_us_scard_vw_beetle.html';
/** Each way to read a page, with the bytes read into text as the services read them. */
const readsOf = (oneByteText: OneByteText | undefined) => ({
  parse: (body: Buffer) => JSON.stringify(parseSearchPage(PageText.of(body, oneByteText), 'market.com')).length,
  text: (body: Buffer) => PageText.of(body, oneByteText).html.length,
  bytes: (body: Buffer) => body.length,
});
const READS = ['parse', 'text', 'bytes'];
const READ = process.env.BENCH_READ ?? 'parse';

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

function memoryLine(): string {
  const memory = process.memoryUsage();
  return `resident ${mb(memory.rss)}: V8 heap ${mb(memory.heapTotal)} (${mb(memory.heapUsed)} in use), external ${mb(memory.external)} (buffers ${mb(memory.arrayBuffers)})`;
}

async function main(): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with --expose-gc (npm run bench:page-memory does)');
  if (!READS.includes(READ)) throw new Error(`BENCH_READ: "${READ}" is not one of ${READS.join(', ')}`);
  const { pageReading, line: pageTextLine } = servicesPageText();
  const read = readsOf(pageReading?.oneByteText)[READ as keyof ReturnType<typeof readsOf>];
  const file = path.join(FIXTURES_DIR, PAGE);
  const size = readFileSync(file).length;
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [
      '-e',
      `const page = require('fs').readFileSync(${JSON.stringify(file)});
       require('http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.length }); res.end(page); })
         .listen(${port}, '127.0.0.1', () => process.send('ready'));`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  await new Promise((resolve, reject) => {
    server.once('message', resolve);
    server.once('exit', () => reject(new Error('the page server did not start')));
  });
  const fetcher = new PageFetcher({ userAgent: 'bench', timeoutMs: 10_000, maxResponseBytes: 16 * 1048576 });
  try {
    const url = `http://127.0.0.1:${port}/`;
    const readOne = async () => {
      const page = await fetcher.fetch(url, 'en-US');
      return read(page.body.whole());
    };
    for (let i = 0; i < 30; i += 1) await readOne();
    collect();
    const how = { parse: 'fetched, parsed and serialized', text: "fetched and made the parser's text (not parsed)", bytes: 'fetched only' }[READ as keyof ReturnType<typeof readsOf>];
    log(`\n${PAGE} (${(size / 1024).toFixed(0)} KB) ${how} ${ITERATIONS} times, ${CONCURRENCY} in flight`);
    log(pageTextLine);
    log(`before: ${memoryLine()}`);
    let started = 0;
    const begun = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (started < ITERATIONS) {
          started += 1;
          await readOne();
        }
      }),
    );
    const seconds = (performance.now() - begun) / 1000;
    const atEnd = process.memoryUsage();
    log(`${(ITERATIONS / seconds).toFixed(0)} pages/s`);
    log(`at the end: ${memoryLine()}`);
    collect();
    await sleep(100);
    collect();
    log(`after a full collection: ${memoryLine()}`);
    const after = process.memoryUsage();
    // Resident memory understates it when the allocator keeps what was freed; external memory and the heap say it exactly.
    log(`only a full collection frees: external ${mb(atEnd.external - after.external)}, heap in use ${mb(atEnd.heapUsed - after.heapUsed)}; resident ${mb(atEnd.rss - after.rss)}`);
  } finally {
    await fetcher.close();
    server.kill();
  }
}

runBench(main);
