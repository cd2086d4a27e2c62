import t, { type Test } from 'tap';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { AppError } from '@comps/shared/errors/app-error';
import { PageBytes } from '@comps/shared/market/fetch/page-bytes';
import { interpretSearchAnswer } from '@comps/shared/market/interpret-answer';
import { callingThreadReader, type SearchAnswerReader } from '@comps/shared/market/market-client';
import { ParseThreads, type ParseThreadsOptions } from '@comps/shared/market/parse-threads';
import type { ParsedSearchPage } from '@comps/shared/market/parse/search-page';
import { FIXTURES_DIR, readFixture } from '../helpers/fixtures.js';
import { eventually } from '../helpers/http-client.js';
import { loadedNativeHelper } from '../helpers/native-helper.js';
import { withoutTapHooks } from '../helpers/without-tap-hooks.js';

// Search answers read in parse threads come back as the calling thread reads them: the same page, the same
// contract error, the layout watch told on the calling thread. A page that finds no thread ready is read on
// the calling thread. A thread that dies fails its waiting pages and is replaced; closing fails what still waits.

const SEARCH_PAGES: Array<[file: string, site: MarketSite]> = [
  ['sold_us_scard_vw_beetle.html', 'market.com'],
  ['sold_us_scard_jetta_fewer_words.html', 'market.com'],
  ['sold_us_scard_zero_results_bmw_x5.html', 'market.com'],
  ['sold_us_scard_pokemon_card_bids.html', 'market.com'],
  ['active_uk_scard_bluray.html', 'market.co.uk'],
  ['active_de_scard_lego_fewer_words.html', 'market.de'],
  ['active_uk_sitem_warhammer.html', 'market.co.uk'],
  ['active_us_sitem_motors_bmw_e28.html', 'market.com'],
  ['challenge_pardon_our_interruption.html', 'market.com'],
  ['item_us_rtx5090.html', 'market.com'],
];

/** The answer as the calling thread's reader is given it, with its bytes whole. */
function upstreamOf(body: Buffer | string) {
  return { status: 200, body: Buffer.from(body), url: 'https://www.market.test/sch/i.html', retryAfterSeconds: null };
}

/** An answer with a copy of `body` of its own: a read takes the body it is given. */
function answerOf(body: Buffer | string, url = 'https://www.market.test/sch/i.html', status = 200) {
  return { status, body: PageBytes.of([Buffer.from(body)]), url, retryAfterSeconds: null, elapsedMs: 1 };
}

/** A page as data: its rows, and which of them were read by structure (a set of the rows themselves). */
function shapeOf(page: ParsedSearchPage) {
  const { readStructurally, ...rest } = page;
  return { ...rest, readStructurally: page.items.flatMap((item, index) => (readStructurally.has(item) ? [index] : [])) };
}

function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** A saved results page the thread tests read. */
const PAGE = readFileSync(path.join(FIXTURES_DIR, 'sold_us_scard_vw_beetle.html'));

/**
 * Parse threads with a captured log, whose pages read on the calling thread are noted (their addresses).
 * Every page may start a thread unless `pagesBeforeStart` says otherwise (one test checks the default).
 */
function threadsWith(options: Omit<ParseThreadsOptions, 'logger' | 'callingThread'>) {
  const { logger, lines } = capturedLogger();
  const onCallingThread: string[] = [];
  const reader = callingThreadReader();
  const callingThread: SearchAnswerReader = { read: (answer, site) => (onCallingThread.push(answer.url), reader.read(answer, site)) };
  return { threads: new ParseThreads({ logger, callingThread, pagesBeforeStart: 1, ...options }), lines, onCallingThread };
}

/** One thread of a test helper module (test/helpers). */
function helperThread(helper: string, options: { pageDeadlineMs?: number } = {}) {
  return threadsWith({ count: 1, entry: new URL(`../helpers/${helper}`, import.meta.url), ...options });
}

/**
 * Pages read until `count` threads are ready. While no thread is starting, a batch: a page for each ready thread and one
 * more, which starts a thread (read on the calling thread when none is ready, else queued behind a ready one). While one
 * starts, no pages: on a loaded machine they would take the CPU the thread needs to load its modules.
 */
async function warm(threads: ParseThreads, count: number): Promise<void> {
  const started = performance.now();
  while (threads.ready < count) {
    if (performance.now() - started > 30_000) throw new Error(`${threads.ready} of ${count} threads ready after 30 s`);
    if (threads.running === threads.ready) await Promise.all(Array.from({ length: threads.ready + 1 }, () => threads.read(answerOf(PAGE), 'market.com')));
    await sleep(10);
  }
}

/** Waits for `condition` (the project's `eventually`, checking every 10 ms, at most 10 s). */
function until(condition: () => boolean, what: string): Promise<true> {
  return eventually(what, async () => condition() || undefined, { timeoutMs: 10_000, intervalMs: 10 });
}

async function outcomeOf<T>(reading: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
  try {
    return { value: await reading() };
  } catch (error) {
    return { error };
  }
}

t.test('saved pages read in two threads, side by side, as the calling thread reads them', async (t) => {
  const { threads, onCallingThread } = threadsWith({ count: 2 });
  t.teardown(() => threads.close());
  await warm(threads, 2);
  onCallingThread.length = 0;
  const pages = SEARCH_PAGES.map(([file, site]) => ({ file, site, bytes: readFileSync(path.join(FIXTURES_DIR, file)) }));
  const inThreads = await Promise.all(pages.map(({ bytes, site }) => outcomeOf(() => threads.read(answerOf(bytes), site))));
  t.strictSame(onCallingThread, [], 'all read in the threads');
  let read = 0;
  for (const [index, { file, site, bytes }] of pages.entries()) {
    const here = await outcomeOf(async () => interpretSearchAnswer(upstreamOf(bytes), site));
    const there = inThreads[index]!;
    if ('value' in here) {
      read += 1;
      t.ok('value' in there, `${file}: read`);
      if ('value' in there) t.strictSame(shapeOf(there.value), shapeOf(here.value), `${file}: the same page`);
    } else {
      t.ok('error' in there && there.error instanceof AppError, `${file}: an AppError`);
      if ('error' in there) t.strictSame([(there.error as AppError).code, (there.error as AppError).message], [(here.error as AppError).code, (here.error as AppError).message], `${file}: the same error`);
    }
  }
  t.equal(read, 8, 'eight of them are results pages');
});

t.test("an unrecognized layout: upstream_error, the layout watch told on the calling thread with the page's row classes", async (t) => {
  const recorded: Array<[string, string | null]> = [];
  const { threads, onCallingThread } = threadsWith({ count: 1, layoutWatch: { record: (site, classes) => recorded.push([site, classes]) } });
  t.teardown(() => threads.close());
  await warm(threads, 1);
  onCallingThread.length = 0;
  const renamed = readFixture('sold_us_scard_vw_beetle.html').replaceAll('s-card', 'q-tile').replaceAll('srp-results', 'q-results').replaceAll('srp-river-results', 'q-river-results');
  await t.rejects(threads.read(answerOf(renamed), 'market.de'), new AppError('upstream_error', "the marketplace's page layout was not recognized"));
  t.strictSame(recorded, [['market.de', 'q-tile q-tile--horizontal']]);
  t.strictSame(onCallingThread, [], 'read in the thread');
});

t.test("a refusal's Retry-After survives the thread", async (t) => {
  const { threads, onCallingThread } = threadsWith({ count: 1 });
  t.teardown(() => threads.close());
  await warm(threads, 1);
  onCallingThread.length = 0;
  const error = (await outcomeOf(() => threads.read({ ...answerOf(''), status: 429, retryAfterSeconds: 7 }, 'market.com'))) as { error: AppError };
  t.strictSame([error.error instanceof AppError, error.error.code, error.error.retryAfter], [true, 'upstream_rate_limited', 7]);
  t.strictSame(onCallingThread, [], 'read in the thread');
});

t.test('a thread that dies fails the pages waiting on it with service_unavailable (retryable); the next page starts another', async (t) => {
  const { threads, lines, onCallingThread } = helperThread('exiting-parse-thread.mjs');
  t.teardown(() => threads.close());
  await warm(threads, 1);
  const dying = outcomeOf(() => threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?exit-thread'), 'market.com'));
  const behind = outcomeOf(() => threads.read(answerOf(PAGE), 'market.com'));
  for (const outcome of [await dying, await behind]) {
    t.ok('error' in outcome && outcome.error instanceof AppError && outcome.error.code === 'service_unavailable', 'service_unavailable');
  }
  t.strictSame(
    lines.filter((line) => line.msg === 'a parse thread exited; the next page starts another').map((line) => [line.exitCode, line.pagesFailed]),
    [[3, 2]],
    'logged once, with its exit code and the pages it failed',
  );
  t.equal(threads.running, 0, 'gone');
  onCallingThread.length = 0;
  t.ok((await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?next'), 'market.com')).items.length > 0, 'the next page is read');
  t.strictSame([onCallingThread, threads.running], [['https://www.market.test/sch/i.html?next'], 1], 'on the calling thread, while the thread it started loads');
  await warm(threads, 1);
  onCallingThread.length = 0;
  t.ok((await threads.read(answerOf(PAGE), 'market.com')).items.length > 0);
  t.strictSame(onCallingThread, [], 'then the replacement reads pages');
});

/**
 * Threads of a test helper module on a clock the test moves. `pagesAt` sends pages together at a time
 * and says where each was read (the page whole, checked), or the code it failed with, and how many
 * threads ran right after they were sent (a start puts a thread in its slot at once); `waits` the waits
 * the failed starts logged, `waitsLogged` waits until there are so many.
 */
function threadsOnClock(t: Test, helper: string, count: number) {
  let clock = 0;
  const { threads, lines, onCallingThread } = threadsWith({ count, now: () => clock, entry: new URL(`../helpers/${helper}`, import.meta.url) });
  const expected = shapeOf(interpretSearchAnswer(upstreamOf(PAGE), 'market.com'));
  const pagesAt = async (at: number, ...names: string[]) => {
    clock = at;
    const readings = names.map((name) => {
      const url = `https://www.market.test/sch/i.html?${name}`;
      return { url, outcome: outcomeOf(() => threads.read(answerOf(PAGE, url), 'market.com')) };
    });
    const running = threads.running;
    const where = await Promise.all(
      readings.map(async ({ url, outcome: reading }) => {
        const outcome = await reading;
        if (!('value' in outcome)) return outcome.error instanceof AppError ? outcome.error.code : String(outcome.error);
        t.strictSame(shapeOf(outcome.value), expected, `${url}: the page, whole`);
        return onCallingThread.includes(url) ? 'calling thread' : 'thread';
      }),
    );
    return { where, running };
  };
  const waits = () =>
    lines.filter((line) => line.msg === 'a parse thread exited before it was ready; pages are read on the calling thread until another may start').map((line) => line.waitMs);
  const waitsLogged = (count: number) => until(() => waits().length >= count, `${count} failed starts logged`);
  return { threads, pagesAt, waits, waitsLogged };
}

t.test('a thread that cannot load holds back the next for 1 s, then 2 s, and so on; its pages, and those meanwhile, are read on the calling thread', async (t) => {
  const { threads, pagesAt, waits, waitsLogged } = threadsOnClock(t, 'unloadable-parse-thread.mjs', 1);
  t.teardown(() => threads.close());
  t.strictSame(await pagesAt(0, 'first'), { where: ['calling thread'], running: 1 }, 'a thread started for it, which cannot load: the page does not wait for it');
  await waitsLogged(1);
  t.strictSame(await pagesAt(999, 'within-1s'), { where: ['calling thread'], running: 0 }, 'within the second after: no thread started');
  t.strictSame(await pagesAt(1000, 'after-1s'), { where: ['calling thread'], running: 1 }, 'a second after: another thread tried');
  await waitsLogged(2);
  t.strictSame(await pagesAt(2999, 'within-2s'), { where: ['calling thread'], running: 0 }, 'then two seconds');
  t.strictSame(await pagesAt(3000, 'after-2s'), { where: ['calling thread'], running: 1 }, 'then another try');
  await waitsLogged(3);
  t.strictSame(await pagesAt(6999, 'within-4s'), { where: ['calling thread'], running: 0 }, 'then four seconds');
  t.strictSame(waits(), [1000, 2000, 4000], 'each failed start logged, with the wait it sets');
  t.equal(threads.running, 0, 'no thread runs');
});

t.test('threads started together for pages expected that all fail to load are one failed start: the wait doubles once, not once a thread', async (t) => {
  const { threads, pagesAt, waits, waitsLogged } = threadsOnClock(t, 'unloadable-parse-thread.mjs', 2);
  t.teardown(() => threads.close());
  threads.expect(20);
  t.equal(threads.running, 2, 'both slots started at once');
  await waitsLogged(2);
  t.strictSame(waits(), [1000, 1000], 'the second failed while the first one\'s wait held: that wait stands');
  threads.expect(20);
  t.equal(threads.running, 0, 'within it, none started');
  t.strictSame(await pagesAt(1000), { where: [], running: 0 }, 'the clock at its end');
  threads.expect(20);
  t.equal(threads.running, 2, 'then both tried again');
  await waitsLogged(4);
  t.strictSame(waits(), [1000, 1000, 2000, 2000], 'the next two together: the wait doubled once');
});

t.test('one thread starts at a time; pages meanwhile are read on the calling thread or go to a ready thread; a thread that loads ends the backoff', async (t) => {
  const { threads, pagesAt, waits, waitsLogged } = threadsOnClock(t, 'loads-unless-told-parse-thread.mjs', 2);
  t.teardown(async () => {
    delete process.env.PARSE_THREAD_FAILS_TO_LOAD;
    await threads.close();
  });
  process.env.PARSE_THREAD_FAILS_TO_LOAD = '1';
  t.strictSame(await pagesAt(0, 'a', 'b'), { where: ['calling thread', 'calling thread'], running: 1 }, 'two pages: one thread started, not a second while it loads');
  await waitsLogged(1);
  t.strictSame(waits(), [1000], 'it did not load: a second without starts');
  t.strictSame(await pagesAt(999, 'c'), { where: ['calling thread'], running: 0 }, 'within it, the calling thread');
  delete process.env.PARSE_THREAD_FAILS_TO_LOAD;
  t.strictSame(await pagesAt(1000, 'd'), { where: ['calling thread'], running: 1 }, 'then a thread that loads is started');
  await until(() => threads.ready === 1, 'the thread ready');
  process.env.PARSE_THREAD_FAILS_TO_LOAD = '1';
  t.strictSame(await pagesAt(1000, 'e', 'f'), { where: ['thread', 'thread'], running: 2 }, 'the ready thread reads both; a second thread is started for the one that waits, and does not load');
  await waitsLogged(2);
  t.strictSame(waits(), [1000, 1000], 'the thread that loaded ended the backoff: a second again, not two');
  t.strictSame(await pagesAt(1500, 'g', 'h'), { where: ['thread', 'thread'], running: 1 }, 'meanwhile both pages go to the ready thread, no thread is started');
  t.equal(threads.running, 1, 'one thread runs');
});

t.test('a thread Node refuses to start is a failed start: its page is read on the calling thread, and starts are held back as after a thread that cannot load', async (t) => {
  let clock = 0;
  // Node refuses a thread whose module is not a file (ERR_INVALID_URL_SCHEME), as it refuses options a thread may not take.
  const { threads, lines, onCallingThread } = threadsWith({ count: 2, now: () => clock, entry: new URL('https://www.market.test/parse-thread-main.js') });
  t.teardown(() => threads.close());
  const refusals = () => lines.filter((line) => line.msg === 'a parse thread could not be started; pages are read on the calling thread until another may start');
  t.ok((await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?a'), 'market.com')).items.length > 0, 'read');
  t.strictSame([threads.running, onCallingThread.length, refusals().map((line) => line.waitMs)], [0, 1, [1000]], 'on the calling thread; the refusal logged with its wait');
  t.equal(refusals()[0]?.level, 50, 'as an error');
  threads.expect(20);
  await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?b'), 'market.com');
  t.strictSame([threads.running, refusals().length], [0, 1], 'within the wait neither a page nor pages expected start one');
  clock = 1000;
  threads.expect(20);
  t.strictSame([threads.running, refusals().map((line) => line.waitMs)], [0, [1000, 2000]], 'then pages expected try once, and the wait doubles');
});

t.test("a process started with a V8 flag, as the api is (--initial-old-space-size), reads pages in its threads, with a preload or without", async (t) => {
  const rows = interpretSearchAnswer(upstreamOf(PAGE), 'market.com').items.length;
  const script = fileURLToPath(new URL('../helpers/read-in-thread.mjs', import.meta.url));
  const page = path.join(FIXTURES_DIR, 'sold_us_scard_vw_beetle.html');
  // Given explicitly, the flag is refused by a Worker (ERR_WORKER_INVALID_EXEC_ARGV): inherited, or left out, it is not.
  for (const options of [['--initial-old-space-size=128'], ['--import=data:text/javascript,', '--initial-old-space-size=128']]) {
    const [command, args] = withoutTapHooks(process.execPath, [...options, script, page]);
    const { stdout } = await promisify(execFile)(command, args, { timeout: 60_000 });
    t.strictSame(JSON.parse(stdout), { ready: true, rows }, options.join(' '));
  }
});

t.test('pages expected start threads before they come, one for each third of them, those running counted, up to the slots; a handful starts none', async (t) => {
  const { threads, lines, onCallingThread } = threadsWith({ count: 2, pagesBeforeStart: undefined });
  t.teardown(() => threads.close());
  threads.expect(2);
  t.equal(threads.running, 0, 'two pages expected: no thread, as two pages read would start none');
  threads.expect(0);
  threads.expect(Number.NaN);
  t.equal(threads.running, 0, 'nothing expected: none');
  threads.expect(5);
  t.equal(threads.running, 1, 'five: one thread, started before any page came');
  threads.expect(5);
  t.equal(threads.running, 1, 'five more: the thread starting counts, no second');
  threads.expect(20);
  t.equal(threads.running, 2, 'twenty: the other slot too');
  await until(() => threads.ready === 2, 'both threads ready');
  const pages = await Promise.all(Array.from({ length: 4 }, (_, index) => threads.read(answerOf(PAGE, `https://www.market.test/sch/i.html?${index}`), 'market.com')));
  t.ok(pages.every((page) => page.items.length > 0), 'read');
  t.strictSame(onCallingThread, [], 'every page read in a thread, none on the calling thread');
  threads.expect(20);
  t.equal(threads.running, 2, 'no slot left: no more');
  threads.release();
  t.equal(threads.running, 0, 'released');
  t.strictSame(lines.filter((line) => line.level !== 30), [], 'nothing logged');
});

t.test('a thread that neither loads nor exits is stopped at its start deadline, as a failed start', async (t) => {
  let clock = 0;
  const startDeadlineMs = 300;
  const { threads, lines, onCallingThread } = threadsWith({ count: 1, now: () => clock, startDeadlineMs, entry: new URL('../helpers/never-ready-parse-thread.mjs', import.meta.url) });
  t.teardown(() => threads.close());
  t.ok((await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?first'), 'market.com')).items.length > 0, 'read');
  t.strictSame([onCallingThread, threads.running], [['https://www.market.test/sch/i.html?first'], 1], 'on the calling thread; the thread it started loads');
  await until(() => threads.running === 0, 'the thread stopped');
  t.strictSame(
    lines.filter((line) => line.level !== 30).map((line) => [line.msg, line.deadlineMs, line.waitMs]),
    [['a parse thread did not become ready in time; it is stopped, and pages are read on the calling thread until another may start', startDeadlineMs, 1000]],
    'logged once, with the deadline and the wait it sets',
  );
  clock = 999;
  await threads.read(answerOf(PAGE), 'market.com');
  t.equal(threads.running, 0, 'within the wait, no thread is started');
  clock = 1000;
  await threads.read(answerOf(PAGE), 'market.com');
  t.equal(threads.running, 1, 'after it, another is tried');
});

t.test("a thread whose ready message comes after its start deadline passed stays stopped, and the wait its failed start set holds", async (t) => {
  const clock = 0;
  const startDeadlineMs = 200;
  const { threads, lines, onCallingThread } = threadsWith({ count: 1, now: () => clock, startDeadlineMs });
  t.teardown(() => threads.close());
  await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?first'), 'market.com');
  t.equal(threads.running, 1, 'the first page started a thread');
  // The calling thread busy past the deadline while the thread loads: once free, the overdue deadline runs
  // first (timers before messages), then the thread's ready message, which must not undo the failed start.
  const blocked = performance.now();
  while (performance.now() - blocked < 3000);
  await until(() => threads.running === 0, 'the late thread stopped');
  await sleep(200);
  await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?second'), 'market.com');
  t.strictSame([threads.running, threads.ready], [0, 0], 'within the wait, no thread is started, and none counts as ready');
  t.equal(onCallingThread.length, 2, 'both pages read on the calling thread');
  t.strictSame(
    lines.filter((line) => line.level !== 30).map((line) => [line.msg, line.waitMs]),
    [['a parse thread did not become ready in time; it is stopped, and pages are read on the calling thread until another may start', 1000]],
  );
});

t.test('a page still unread at its deadline is internal_error, its thread is stopped, the pages behind it are service_unavailable; the next page starts another', async (t) => {
  const pageDeadlineMs = 2000;
  const { threads, lines, onCallingThread } = helperThread('stalling-parse-thread.mjs', { pageDeadlineMs });
  t.teardown(() => threads.close());
  await warm(threads, 1);
  const started = performance.now();
  const hanging = outcomeOf(() => threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?hang-thread'), 'market.com'));
  const behind = outcomeOf(() => threads.read(answerOf(PAGE), 'market.com'));
  const stuck = await hanging;
  t.ok('error' in stuck && stuck.error instanceof AppError && stuck.error.code === 'internal_error', 'the page being read: internal_error');
  t.ok(performance.now() - started >= pageDeadlineMs - 1, 'once its deadline passed');
  const queued = await behind;
  t.ok('error' in queued && queued.error instanceof AppError && queued.error.code === 'service_unavailable', 'the page behind it: service_unavailable');
  t.equal(threads.running, 0, 'the thread was stopped');
  onCallingThread.length = 0;
  t.ok((await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?next'), 'market.com')).items.length > 0, 'the next page is read');
  t.strictSame([onCallingThread, threads.running], [['https://www.market.test/sch/i.html?next'], 1], 'on the calling thread, and it started a thread');
  // Closing waits for the stopped thread's exit too: only then is it known that its stop logged nothing more.
  await threads.close();
  t.strictSame(
    lines.filter((line) => line.level !== 30).map((line) => [line.msg, line.url, line.deadlineMs, line.pagesFailed]),
    [['a parse thread did not read a page in time; the thread is stopped', 'https://www.market.test/sch/i.html?hang-thread', pageDeadlineMs, 2]],
    'logged once, with the page, the deadline and the pages it failed; its stop is no second failure',
  );
});

t.test("the deadline is each page's own, from when its thread begins to read it: a queue longer than one deadline is read", async (t) => {
  const pageDeadlineMs = 2000;
  const { threads, lines, onCallingThread } = helperThread('stalling-parse-thread.mjs', { pageDeadlineMs });
  t.teardown(() => threads.close());
  await warm(threads, 1);
  onCallingThread.length = 0;
  const started = performance.now();
  const pages = await Promise.all(Array.from({ length: 6 }, () => threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?slow-thread'), 'market.com')));
  t.ok(performance.now() - started > 3000, 'six pages of 500 ms: longer than one deadline');
  t.equal(pages.filter((read) => read.items.length > 0).length, 6, 'all read');
  t.strictSame(onCallingThread, [], 'in the thread');
  t.strictSame(lines.filter((line) => line.level !== 30), [], 'nothing logged');
});

t.test('a page does not wait for a thread to start: while none is ready, pages are read on the calling thread; then in the thread', async (t) => {
  const { threads, lines, onCallingThread } = helperThread('slow-start-parse-thread.mjs');
  t.teardown(() => threads.close());
  const first = 'https://www.market.test/sch/i.html?first';
  const second = 'https://www.market.test/sch/i.html?second';
  const started = performance.now();
  t.ok((await threads.read(answerOf(PAGE, first), 'market.com')).items.length > 0, 'read');
  t.ok((await threads.read(answerOf(PAGE, second), 'market.com')).items.length > 0, 'read');
  t.ok(performance.now() - started < 1500, 'before the thread could have loaded (1.5 s)');
  t.strictSame([onCallingThread, threads.running, threads.ready], [[first, second], 1, 0], 'both on the calling thread; the first started the thread, which loads');
  t.strictSame(threads.figures(), { starting: 1, ready: 0, pagesInThreads: 0, pagesOnCallingThread: 2 }, 'one starting');
  await until(() => threads.ready === 1, 'the thread ready');
  t.strictSame(threads.figures(), { starting: 0, ready: 1, pagesInThreads: 0, pagesOnCallingThread: 2 }, 'the figures the metrics show');
  t.ok((await threads.read(answerOf(PAGE), 'market.com')).items.length > 0, 'read');
  t.strictSame(onCallingThread, [first, second], 'in the thread');
  t.strictSame(threads.figures(), { starting: 0, ready: 1, pagesInThreads: 1, pagesOnCallingThread: 2 });
  t.strictSame(lines.filter((line) => line.level !== 30), [], 'nothing logged');
});

t.test("a page's chunks are moved to its thread where they own their memory, copied where they are a slice, and put together there", async (t) => {
  const { threads, onCallingThread } = threadsWith({ count: 1 });
  t.teardown(() => threads.close());
  await warm(threads, 1);
  onCallingThread.length = 0;
  const expected = shapeOf(interpretSearchAnswer(upstreamOf(PAGE), 'market.com'));
  const owned = Buffer.alloc(PAGE.length);
  PAGE.copy(owned);
  t.strictSame(shapeOf(await threads.read({ ...answerOf(''), body: PageBytes.of([owned]) }, 'market.com')), expected, 'one chunk: read');
  t.equal(owned.length, 0, 'moved: the caller has it no more');
  const pool = Buffer.alloc(PAGE.length + 100);
  PAGE.copy(pool, 50);
  const slice = pool.subarray(50, 50 + PAGE.length);
  t.strictSame(shapeOf(await threads.read({ ...answerOf(''), body: PageBytes.of([slice]) }, 'market.com')), expected, 'a slice: read');
  t.equal(pool.length, PAGE.length + 100, 'copied: the larger buffer stays');
  // As a socket reads a page: the first chunk shares its buffer with the headers, the others own theirs.
  const withHeaders = Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\n\r\n'), PAGE.subarray(0, 1000)]);
  const first = withHeaders.subarray(withHeaders.length - 1000);
  const rest = [PAGE.subarray(1000, 70_000), PAGE.subarray(70_000)].map((part) => Buffer.from(part));
  const chunks = PageBytes.of([first, ...rest]);
  t.strictSame(shapeOf(await threads.read({ ...answerOf(''), body: chunks }, 'market.com')), expected, 'chunks: read');
  t.throws(() => chunks.whole(), /handed to their reader/, 'the bytes handed over are not read again here');
  t.equal(withHeaders.length, 1000 + 19, "the first chunk copied: the headers' buffer stays");
  t.strictSame(rest.map((chunk) => chunk.length), [0, 0], 'the others moved');
  t.strictSame(onCallingThread, [], 'every one read in the thread');
});

t.test("with the native helper's join, a page's chunks go to its thread as one buffer, moved, and are let go here", async (t) => {
  const native = loadedNativeHelper(t);
  if (!native) return;
  const joins: number[] = [];
  const joinBytes = (parts: readonly Uint8Array[]) => {
    joins.push(parts.length);
    return native.joinedBytes(parts);
  };
  const { threads, onCallingThread } = threadsWith({ count: 1, joinBytes });
  t.teardown(() => threads.close());
  await warm(threads, 1);
  onCallingThread.length = 0;
  joins.length = 0;
  const expected = shapeOf(interpretSearchAnswer(upstreamOf(PAGE), 'market.com'));
  const withHeaders = Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\n\r\n'), PAGE.subarray(0, 1000)]);
  const first = withHeaders.subarray(withHeaders.length - 1000);
  const rest = [PAGE.subarray(1000, 70_000), PAGE.subarray(70_000)].map((part) => Buffer.from(part));
  t.strictSame(shapeOf(await threads.read({ ...answerOf(''), body: PageBytes.of([first, ...rest]) }, 'market.com')), expected, 'chunks: read');
  t.strictSame(joins, [3], 'joined, all three');
  t.equal(withHeaders.length, 1000 + 19, "the first chunk copied: the headers' buffer stays");
  t.strictSame(rest.map((chunk) => chunk.length), [0, 0], 'the others let go');
  const owned = Buffer.from(PAGE);
  t.strictSame(shapeOf(await threads.read({ ...answerOf(''), body: PageBytes.of([owned]) }, 'market.com')), expected, 'one chunk: read');
  t.strictSame(joins, [3], 'one chunk is moved as it is, not joined');
  t.equal(owned.length, 0, 'moved');
  const small = [Buffer.from(PAGE.subarray(0, 20_000)), Buffer.from(PAGE.subarray(20_000, 40_000))];
  await threads.read({ ...answerOf(''), body: PageBytes.of(small) }, 'market.com').catch(() => undefined);
  t.strictSame(joins, [3], 'chunks under 64 KB in all are moved as they are');
  t.strictSame(onCallingThread, [], 'every one read in the thread');
});

t.test('a join that fails fails its page with internal_error, counted nowhere; the next page is read', async (t) => {
  const { threads } = threadsWith({
    count: 1,
    joinBytes: () => {
      throw new RangeError('joinedBytes: out of memory');
    },
  });
  t.teardown(() => threads.close());
  await warm(threads, 1);
  const before = threads.figures();
  const chunks = [Buffer.from(PAGE.subarray(0, 70_000)), Buffer.from(PAGE.subarray(70_000))];
  await t.rejects(threads.read({ ...answerOf(''), body: PageBytes.of(chunks) }, 'market.com'), { code: 'internal_error' }, 'internal_error');
  t.strictSame(threads.figures(), before, 'no page counted in the thread');
  t.ok((await threads.read(answerOf(PAGE), 'market.com')).items.length > 0, 'the next page (one chunk, not joined) read');
});

t.test('threads start when pages come; release stops those with no page waiting, then runs what follows; the next page starts one again', async (t) => {
  const { threads, lines, onCallingThread } = threadsWith({ count: 2 });
  t.teardown(() => threads.close());
  t.equal(threads.running, 0, 'none before a page');
  await threads.read(answerOf(PAGE), 'market.com');
  t.equal(threads.running, 1, 'one page, read alone: one thread');
  await until(() => threads.ready === 1, 'the thread ready');
  await Promise.all([threads.read(answerOf(PAGE), 'market.com'), threads.read(answerOf(PAGE), 'market.com')]);
  t.equal(threads.running, 2, 'two pages at once: two threads');
  await until(() => threads.ready === 2, 'both threads ready');
  t.equal(onCallingThread.length, 1, 'the first page alone read on the calling thread, while no thread was ready');
  const waiting = threads.read(answerOf(PAGE), 'market.com');
  let released = 0;
  threads.release(() => (released += 1));
  t.equal(threads.running, 1, 'the thread reading a page is kept');
  t.equal(released, 0, 'what follows waits for the idle thread to stop');
  t.ok((await waiting).items.length > 0, 'and answers it');
  await until(() => released === 1, 'what follows ran once the idle thread stopped');
  threads.release();
  t.equal(threads.running, 0, 'released, now idle too');
  await sleep(100);
  t.equal(released, 1, 'what follows ran once');
  t.ok((await threads.read(answerOf(PAGE), 'market.com')).items.length > 0, 'the next page starts a thread again');
  t.equal(threads.running, 1);
  t.strictSame(lines.filter((line) => line.level !== 30), [], 'no error logged: the stops were asked for');
});

t.test('a lone page starts no thread: the third since the last idle moment does, and after a release pages count again', async (t) => {
  const { threads, lines, onCallingThread } = threadsWith({ count: 1, pagesBeforeStart: undefined });
  t.teardown(() => threads.close());
  await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?1'), 'market.com');
  await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?2'), 'market.com');
  t.equal(threads.running, 0, 'two pages: no thread');
  threads.release();
  await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?3'), 'market.com');
  await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?4'), 'market.com');
  t.equal(threads.running, 0, 'two more after an idle moment: still none');
  await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?5'), 'market.com');
  t.equal(threads.running, 1, 'the third since the idle moment starts one');
  t.strictSame(onCallingThread, ['1', '2', '3', '4', '5'].map((n) => `https://www.market.test/sch/i.html?${n}`), 'each read on the calling thread, none waiting for a start');
  await until(() => threads.ready === 1, 'the thread ready');
  t.ok((await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?6'), 'market.com')).items.length > 0, 'read');
  t.equal(onCallingThread.length, 5, 'the next in the thread');
  threads.release();
  t.equal(threads.running, 0, 'released');
  await threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?7'), 'market.com');
  t.equal(threads.running, 0, 'the first page after it starts none');
  t.strictSame(lines.filter((line) => line.level !== 30), [], 'nothing logged');
});

t.test('closing fails what waits with service_unavailable, and refuses what comes after', async (t) => {
  const { threads } = threadsWith({ count: 1 });
  await warm(threads, 1);
  const waiting = outcomeOf(() => threads.read(answerOf(PAGE), 'market.com'));
  await threads.close();
  const outcome = await waiting;
  t.ok('error' in outcome && outcome.error instanceof AppError && outcome.error.code === 'service_unavailable', 'the waiting page: service_unavailable');
  await t.rejects(threads.read(answerOf(PAGE), 'market.com'), { code: 'service_unavailable' });
});

t.test('a count that is not a whole number of threads, or of pages before a start, is refused', async (t) => {
  t.throws(() => threadsWith({ count: 0 }), RangeError);
  t.throws(() => threadsWith({ count: 1.5 }), RangeError);
  t.throws(() => threadsWith({ count: 1, pagesBeforeStart: 0 }), RangeError);
  t.throws(() => threadsWith({ count: 1, pagesBeforeStart: Number.NaN }), RangeError);
});
