import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Parser } from 'htmlparser2';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { readItemPage } from '@comps/shared/market/parse/item-page';
import { PageText } from '@comps/shared/market/parse/page-text';
import type { PageReading } from '@comps/shared/runtime/native-helper';
import type { OneByteText } from '@comps/shared/runtime/one-byte-text';
import { parseSearchPage } from '@comps/shared/market/parse/search-page';
import { freePort } from '@comps/scripts/stack/free-port';
import { serviceEntry } from '@comps/scripts/stack/launch-stack';
import { FIXTURES_DIR } from '../test/helpers/fixtures.js';
import { median } from './bench-stack.js';
import { bareTokenize as tokenize } from './bare-tokenize.js';
import { measureParseThreads } from './parse-threads.js';
import { servicesPageText } from './services-page-text.js';

/**
 * `npm run bench:parse`: on every saved marketplace page, the parser the api uses
 * (`parseSearchPage`, or `readItemPage` for item pages) against a bare htmlparser2 tokenization of
 * the same page, measured in one run after a warm-up, each iteration timing every variant back to
 * back (the machine is shared: a ratio of neighbouring runs sees one load). Two views:
 *  (a) from a decoded string: the parse of the page's text against the bare tokenization of the
 *      same text. Two baselines: htmlparser2's `Tokenizer` with callbacks that do nothing (the
 *      strict one), and its `Parser` with no handler (what the library's API does short of
 *      building a tree).
 *  (b) from the bytes, as the services get a page: the service's path (bytes → parse, whatever
 *      decoding it does included) against bytes → `toString('utf8')` → bare tokenization.
 * Per page the medians and the median of the per-iteration ratios; then the mean ratio over the
 * pages (goal: at most 0.5). Then the simulator: its CPU per results page with its cache cold and
 * warm, the same ratios on its full-size pages, and a burst of twenty of them parsed on the calling
 * thread against pools of warm parse threads (parse-threads.ts).
 */
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? '40');
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? '15');
const SIM_PAGES = Number(process.env.BENCH_SIM_PAGES ?? '40');

const log = (line = '') => process.stdout.write(`${line}\n`);
const ms = (value: number) => value.toFixed(2).padStart(7);

function parseWithoutHandler(html: string): void {
  new Parser(null, { decodeEntities: true }).end(html);
}


interface Measured {
  /** (a) From the decoded string: the bare tokenization, the handler-less parser, the parse. */
  tokenizeMs: number;
  parserMs: number;
  parseMs: number;
  /** Median of parse / tokenize, each pair timed back to back. */
  ratio: number;
  ratioToParser: number;
  /** (b) From the bytes: bytes → `toString('utf8')` → bare tokenization, and the service's bytes → parse. */
  decodeTokenizeMs: number;
  bytesParseMs: number;
  /** Median of bytes → parse / bytes → decode → tokenize. */
  bytesRatio: number;
}

/** A page's parse from its decoded text and from its bytes (the service's path). */
interface Parsers {
  fromText: () => unknown;
  /** Takes the bytes, as the services' reader does (the native helper's text leaves their buffer empty). */
  fromBytes: (bytes: Buffer) => unknown;
}

function measure(bytes: Buffer, html: string, { fromText, fromBytes }: Parsers): Measured {
  const decodeAndTokenize = () => tokenize(bytes.toString('utf8'));
  for (let i = 0; i < WARM_UP; i += 1) {
    tokenize(html);
    parseWithoutHandler(html);
    fromText();
    decodeAndTokenize();
    fromBytes(Buffer.from(bytes));
  }
  const times = { tokenize: [] as number[], parser: [] as number[], parse: [] as number[], decodeTokenize: [] as number[], bytesParse: [] as number[] };
  const ratios: number[] = [];
  const ratiosToParser: number[] = [];
  const bytesRatios: number[] = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    // A fetched page's bytes are new, and read once: each read gets its copy, made before it is timed.
    const fetched = Buffer.from(bytes);
    const started = performance.now();
    tokenize(html);
    const tokenized = performance.now();
    parseWithoutHandler(html);
    const parsedBare = performance.now();
    fromText();
    const parsed = performance.now();
    decodeAndTokenize();
    const decodedAndTokenized = performance.now();
    fromBytes(fetched);
    const done = performance.now();
    times.tokenize.push(tokenized - started);
    times.parser.push(parsedBare - tokenized);
    times.parse.push(parsed - parsedBare);
    times.decodeTokenize.push(decodedAndTokenized - parsed);
    times.bytesParse.push(done - decodedAndTokenized);
    ratios.push((parsed - parsedBare) / (tokenized - started));
    ratiosToParser.push((parsed - parsedBare) / (parsedBare - tokenized));
    bytesRatios.push((done - decodedAndTokenized) / (decodedAndTokenized - parsed));
  }
  return {
    tokenizeMs: median(times.tokenize),
    parserMs: median(times.parser),
    parseMs: median(times.parse),
    ratio: median(ratios),
    ratioToParser: median(ratiosToParser),
    decodeTokenizeMs: median(times.decodeTokenize),
    bytesParseMs: median(times.bytesParse),
    bytesRatio: median(bytesRatios),
  };
}

const SITE_OF_HOST: Record<string, MarketSite> = { 'ebay.com': 'market.com', 'ebay.co.uk': 'market.co.uk', 'ebay.de': 'market.de', 'ebay.fr': 'market.fr', 'ebay.it': 'market.it', 'ebay.es': 'market.es', 'ebay.ca': 'market.ca', 'ebay.com.au': 'market.com.au' };

interface SavedPage {
  file: string;
  site: MarketSite;
  kind: string;
}

function savedPages(): SavedPage[] {
  const [header, ...rows] = readFileSync(path.join(FIXTURES_DIR, 'INDEX.tsv'), 'utf8').trim().split('\n').map((line) => line.split('\t'));
  const column = (name: string) => header!.indexOf(name);
  return rows.map((row) => ({ file: row[column('file')]!, site: SITE_OF_HOST[row[column('site')]!] ?? 'market.com', kind: row[column('kind')]! }));
}

/** The service's path from the bytes: the parser takes them as they came (`PageText`, read as the services read them), and decodes what it returns. */
function parsersOf(kind: string, site: MarketSite, html: string, oneByteText: OneByteText | undefined): Parsers {
  return kind === 'item'
    ? { fromText: () => readItemPage(html, site, null), fromBytes: (bytes) => readItemPage(PageText.of(bytes, oneByteText), site, null) }
    : { fromText: () => parseSearchPage(html, site), fromBytes: (bytes) => parseSearchPage(PageText.of(bytes, oneByteText), site) };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function printRatios(rows: Array<{ name: string; bytes: number } & Measured>): void {
  log('(a) from a decoded string: parse(text) against a bare tokenization of the same text');
  log(`${'page'.padEnd(46)} ${'KB'.padStart(6)} ${'tokenizer'.padStart(9)} ${'parser'.padStart(9)} ${'parse'.padStart(9)} ${'ratio'.padStart(6)} ${'/parser'.padStart(7)}`);
  for (const row of rows) {
    log(`${row.name.padEnd(46)} ${String(Math.round(row.bytes / 1024)).padStart(6)} ${ms(row.tokenizeMs)}ms ${ms(row.parserMs)}ms ${ms(row.parseMs)}ms ${row.ratio.toFixed(3).padStart(6)} ${row.ratioToParser.toFixed(3).padStart(7)}`);
  }
  log(`(a) mean ratio over ${rows.length} pages: ${mean(rows.map((row) => row.ratio)).toFixed(3)} to the tokenizer, ${mean(rows.map((row) => row.ratioToParser)).toFixed(3)} to the handler-less parser (goal: at most 0.5)`);
  log();
  log("(b) from the bytes: the service's path (bytes → parse, decoding included) against bytes → toString('utf8') → bare tokenization");
  log(`${'page'.padEnd(46)} ${'KB'.padStart(6)} ${'utf8+tokenize'.padStart(13)} ${'bytes→parse'.padStart(11)} ${'ratio'.padStart(6)}`);
  for (const row of rows) {
    log(`${row.name.padEnd(46)} ${String(Math.round(row.bytes / 1024)).padStart(6)} ${ms(row.decodeTokenizeMs).padStart(11)}ms ${ms(row.bytesParseMs).padStart(9)}ms ${row.bytesRatio.toFixed(3).padStart(6)}`);
  }
  log(`(b) mean ratio over ${rows.length} pages: ${mean(rows.map((row) => row.bytesRatio)).toFixed(3)} (bytes → parse) / (bytes → utf8 → tokenize)`);
}

/** CPU time (user + system) of a process so far, in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

async function simulatorSection(pageReading: PageReading | undefined): Promise<void> {
  const oneByteText = pageReading?.oneByteText;
  const port = await freePort();
  const sim = spawn(process.execPath, [serviceEntry('market-sim')], {
    env: { PATH: process.env.PATH ?? '', MARKET_SIM_PORT: String(port), LOG_LEVEL: 'warn', MARKET_SIM_CACHE_MB: '512' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let tries = 0; ; tries += 1) {
      if (await fetch(`${base}/healthz`).then((response) => response.ok, () => false)) break;
      if (tries > 100) throw new Error('the simulator did not start');
      await sleep(100);
    }
    const words = ['nintendo', 'iphone', 'lego', 'sony headphones', 'vintage camera', 'teapot', 'road bike', 'desk lamp', 'pokemon cards', 'board game'];
    const urls = Array.from({ length: SIM_PAGES }, (_, i) => `${base}/market.com/sch/i.html?_nkw=${encodeURIComponent(words[i % words.length]!)}&LH_Sold=1&LH_Complete=1&_pgn=${1 + Math.floor(i / words.length)}`);
    const fetchAll = async () => {
      const pages: Buffer[] = [];
      const before = cpuMs(sim.pid!);
      for (const url of urls) pages.push(Buffer.from(await (await fetch(url)).arrayBuffer()));
      return { pages, cpuPerPage: (cpuMs(sim.pid!) - before) / urls.length };
    };
    const cold = await fetchAll();
    const warm = await fetchAll();
    const sizes = cold.pages.map((page) => page.length / 1024 / 1024);
    log();
    log(`simulator, full pages (${SIM_PAGES} URLs, one after another): ${Math.min(...sizes).toFixed(2)}–${Math.max(...sizes).toFixed(2)} MB, mean ${(sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(2)} MB`);
    log(`  CPU per page, cache cold (rendered): ${ms(cold.cpuPerPage)}ms`);
    log(`  CPU per page, cache warm (served):   ${ms(warm.cpuPerPage)}ms`);
    log();
    log('the parser on simulator pages:');
    printRatios(
      cold.pages.slice(0, 10).map((bytes, index) => {
        const html = bytes.toString('utf8');
        const url = new URL(urls[index]!);
        return { name: `sim: ${url.searchParams.get('_nkw')} p${url.searchParams.get('_pgn')}`, bytes: bytes.length, ...measure(bytes, html, parsersOf('search', 'market.com', html, oneByteText)) };
      }),
    );
    const burst = await measureParseThreads(cold.pages.slice(0, 20), 'market.com', pageReading);
    log();
    log(`parse threads, a burst of ${burst.pages} simulator pages (as bench:bulk's pages arrive at concurrency 20), medians, taken in turns:`);
    log(`  on the calling thread ${ms(burst.mainMs)}ms; one parse thread ${ms(burst.oneThreadMs)}ms (${(burst.oneThreadMs / burst.mainMs).toFixed(2)}×); two ${ms(burst.twoThreadsMs)}ms (${(burst.twoThreadsMs / burst.mainMs).toFixed(2)}×)`);
    log(`  two threads against one: ${(burst.twoThreadsMs / burst.oneThreadMs).toFixed(2)} (0.50 where both cores parse at full speed)`);
  } finally {
    sim.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const { pageReading, line } = servicesPageText();
  const oneByteText = pageReading?.oneByteText;
  log(`npm run bench:parse: ${ITERATIONS} iterations after ${WARM_UP} of warm-up; medians; ${line}`);
  log();
  printRatios(
    savedPages().map((page) => {
      const bytes = readFileSync(path.join(FIXTURES_DIR, page.file));
      const html = bytes.toString('utf8');
      return { name: page.file.replace(/\.html$/, ''), bytes: bytes.length, ...measure(bytes, html, parsersOf(page.kind, page.site, html, oneByteText)) };
    }),
  );
  await simulatorSection(pageReading);
}

await main();
