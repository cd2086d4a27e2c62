import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { AppError } from '@comps/shared/errors/app-error';
import { interpretSearchAnswer } from '@comps/shared/market/interpret-answer';
import { callingThreadReader, type SearchAnswerReader } from '@comps/shared/market/market-client';
import { ParseThreads } from '@comps/shared/market/parse-threads';
import type { ParsedSearchPage } from '@comps/shared/market/parse/search-page';
import { FIXTURES_DIR, readFixture } from '../helpers/fixtures.js';

// Search answers read in parse threads come back as the calling thread reads them: the same page, the same
// contract error, the layout watch told on the calling thread. A thread that dies fails its waiting pages
// and is replaced; closing fails what still waits.

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

/** An answer with a copy of `body` of its own: a read takes the body it is given. */
function answerOf(body: Buffer | string, url = 'https://www.market.test/sch/i.html', status = 200) {
  return { status, body: Buffer.from(body), url, retryAfterSeconds: null, elapsedMs: 1 };
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

/** Where the threads start, no page is read on the calling thread: one that is fails its test. */
const NOT_ON_CALLING_THREAD: SearchAnswerReader = { read: () => Promise.reject(new Error('a page was read on the calling thread')) };

/** A saved results page the thread tests read. */
const PAGE = readFileSync(path.join(FIXTURES_DIR, 'sold_us_scard_vw_beetle.html'));

/** One thread of a test helper module (test/helpers), with a captured log. */
function helperThread(helper: string, options: { pageDeadlineMs?: number } = {}) {
  const { logger, lines } = capturedLogger();
  return { threads: new ParseThreads({ count: 1, logger, callingThread: NOT_ON_CALLING_THREAD, entry: new URL(`../helpers/${helper}`, import.meta.url), ...options }), lines };
}

async function outcomeOf<T>(reading: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
  try {
    return { value: await reading() };
  } catch (error) {
    return { error };
  }
}

t.test('saved pages read in two threads, side by side, as the calling thread reads them', async (t) => {
  const { logger } = capturedLogger();
  const threads = new ParseThreads({ count: 2, logger, callingThread: NOT_ON_CALLING_THREAD });
  t.teardown(() => threads.close());
  const pages = SEARCH_PAGES.map(([file, site]) => ({ file, site, bytes: readFileSync(path.join(FIXTURES_DIR, file)) }));
  const inThreads = await Promise.all(pages.map(({ bytes, site }) => outcomeOf(() => threads.read(answerOf(bytes), site))));
  let read = 0;
  for (const [index, { file, site, bytes }] of pages.entries()) {
    const here = await outcomeOf(async () => interpretSearchAnswer(answerOf(bytes), site));
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
  const { logger } = capturedLogger();
  const recorded: Array<[string, string | null]> = [];
  const threads = new ParseThreads({ count: 1, logger, callingThread: NOT_ON_CALLING_THREAD, layoutWatch: { record: (site, classes) => recorded.push([site, classes]) } });
  t.teardown(() => threads.close());
  const renamed = readFixture('sold_us_scard_vw_beetle.html').replaceAll('s-card', 'q-tile').replaceAll('srp-results', 'q-results').replaceAll('srp-river-results', 'q-river-results');
  await t.rejects(threads.read(answerOf(renamed), 'market.de'), new AppError('upstream_error', "the marketplace's page layout was not recognized"));
  t.strictSame(recorded, [['market.de', 'q-tile q-tile--horizontal']]);
});

t.test("a refusal's Retry-After survives the thread", async (t) => {
  const { logger } = capturedLogger();
  const threads = new ParseThreads({ count: 1, logger, callingThread: NOT_ON_CALLING_THREAD });
  t.teardown(() => threads.close());
  const error = (await outcomeOf(() => threads.read({ ...answerOf(''), status: 429, retryAfterSeconds: 7 }, 'market.com'))) as { error: AppError };
  t.strictSame([error.error instanceof AppError, error.error.code, error.error.retryAfter], [true, 'upstream_rate_limited', 7]);
});

t.test('a thread that dies fails the pages waiting on it with service_unavailable (retryable); the next page starts another', async (t) => {
  const { threads, lines } = helperThread('exiting-parse-thread.mjs');
  t.teardown(() => threads.close());
  t.equal((await threads.read(answerOf(PAGE), 'market.com')).items.length > 0, true, 'a page read before');
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
  const after = await threads.read(answerOf(PAGE), 'market.com');
  t.equal(after.items.length, (await threads.read(answerOf(PAGE), 'market.com')).items.length, 'the replacement reads pages');
  t.ok(after.items.length > 0);
});

/**
 * Threads of a test helper module on a clock the test moves, whose pages read on the calling thread are
 * noted. `pagesAt` sends pages together at a time and says where each was read (the page whole, checked),
 * or the code it failed with; `waits` the waits the failed starts logged.
 */
function threadsOnClock(t: Test, helper: string, count: number) {
  const { logger, lines } = capturedLogger();
  let clock = 0;
  const onCallingThread: string[] = [];
  const reader = callingThreadReader();
  const threads = new ParseThreads({
    count,
    logger,
    now: () => clock,
    entry: new URL(`../helpers/${helper}`, import.meta.url),
    callingThread: { read: (answer, site) => (onCallingThread.push(answer.url), reader.read(answer, site)) },
  });
  const expected = shapeOf(interpretSearchAnswer(answerOf(PAGE), 'market.com'));
  const pagesAt = (at: number, ...names: string[]) => {
    clock = at;
    return Promise.all(
      names.map(async (name) => {
        const url = `https://www.market.test/sch/i.html?${name}`;
        const outcome = await outcomeOf(() => threads.read(answerOf(PAGE, url), 'market.com'));
        if (!('value' in outcome)) return outcome.error instanceof AppError ? outcome.error.code : String(outcome.error);
        t.strictSame(shapeOf(outcome.value), expected, `${name}: the page, whole`);
        return onCallingThread.includes(url) ? 'calling thread' : 'thread';
      }),
    );
  };
  const waits = () =>
    lines.filter((line) => line.msg === 'a parse thread exited before it was ready; pages are read on the calling thread until another may start').map((line) => [line.waitMs, line.pagesFailed]);
  return { threads, pagesAt, waits };
}

t.test('a thread that cannot load holds back the next for 1 s, then 2 s, and so on; meanwhile pages are read on the calling thread', async (t) => {
  const { threads, pagesAt, waits } = threadsOnClock(t, 'unloadable-parse-thread.mjs', 1);
  t.teardown(() => threads.close());
  t.strictSame(await pagesAt(0, 'first'), ['service_unavailable'], 'the page sent to the thread that failed to load: retryable, uncharged');
  t.strictSame(await pagesAt(999, 'within-1s'), ['calling thread'], 'within the second after: no thread started');
  t.strictSame(await pagesAt(1000, 'after-1s'), ['service_unavailable'], 'a second after: another thread tried, and it fails too');
  t.strictSame(await pagesAt(2999, 'within-2s'), ['calling thread'], 'then two seconds');
  t.strictSame(await pagesAt(3000, 'after-2s'), ['service_unavailable'], 'then another try');
  t.strictSame(await pagesAt(6999, 'within-4s'), ['calling thread'], 'then four seconds');
  t.strictSame(waits(), [[1000, 1], [2000, 1], [4000, 1]], 'each failed start logged, with the wait it sets and the page it failed');
  t.equal(threads.running, 0, 'no thread runs');
});

t.test('threads started together that cannot load count as one failed start; meanwhile pages go to a ready thread; a thread that loads ends the wait', async (t) => {
  const { threads, pagesAt, waits } = threadsOnClock(t, 'loads-unless-told-parse-thread.mjs', 2);
  t.teardown(async () => {
    delete process.env.PARSE_THREAD_FAILS_TO_LOAD;
    await threads.close();
  });
  process.env.PARSE_THREAD_FAILS_TO_LOAD = '1';
  t.strictSame(await pagesAt(0, 'a', 'b'), ['service_unavailable', 'service_unavailable'], 'two threads started, and neither loaded');
  t.strictSame(waits(), [[1000, 1], [1000, 1]], 'one wait of a second for both: they failed as one start');
  t.strictSame(await pagesAt(999, 'c'), ['calling thread'], 'within it, the calling thread');
  delete process.env.PARSE_THREAD_FAILS_TO_LOAD;
  t.strictSame(await pagesAt(1000, 'd'), ['thread'], 'then a thread that loads');
  process.env.PARSE_THREAD_FAILS_TO_LOAD = '1';
  t.strictSame(await pagesAt(1000, 'e', 'f'), ['thread', 'service_unavailable'], 'the ready thread reads one; a second thread is started for the other, and does not load');
  t.strictSame(waits(), [[1000, 1], [1000, 1], [1000, 1]], 'the thread that loaded ended the backoff: a second again, not two');
  t.strictSame(await pagesAt(1500, 'g', 'h'), ['thread', 'thread'], 'meanwhile both pages go to the ready thread, none to a new one');
  t.equal(threads.running, 1, 'one thread runs');
});

t.test('a page still unread at its deadline is internal_error, its thread is stopped, the pages behind it are service_unavailable; the next page starts another', async (t) => {
  const pageDeadlineMs = 2000;
  const { threads, lines } = helperThread('stalling-parse-thread.mjs', { pageDeadlineMs });
  t.teardown(() => threads.close());
  t.ok((await threads.read(answerOf(PAGE), 'market.com')).items.length > 0, 'a page read before');
  const started = performance.now();
  const hanging = outcomeOf(() => threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?hang-thread'), 'market.com'));
  const behind = outcomeOf(() => threads.read(answerOf(PAGE), 'market.com'));
  const stuck = await hanging;
  t.ok('error' in stuck && stuck.error instanceof AppError && stuck.error.code === 'internal_error', 'the page being read: internal_error');
  t.ok(performance.now() - started >= pageDeadlineMs - 1, 'once its deadline passed');
  const queued = await behind;
  t.ok('error' in queued && queued.error instanceof AppError && queued.error.code === 'service_unavailable', 'the page behind it: service_unavailable');
  t.equal(threads.running, 0, 'the thread was stopped');
  t.ok((await threads.read(answerOf(PAGE), 'market.com')).items.length > 0, 'the next page starts a thread that reads it');
  t.equal(threads.running, 1);
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
  const { threads, lines } = helperThread('stalling-parse-thread.mjs', { pageDeadlineMs });
  t.teardown(() => threads.close());
  const started = performance.now();
  const pages = await Promise.all(Array.from({ length: 6 }, () => threads.read(answerOf(PAGE, 'https://www.market.test/sch/i.html?slow-thread'), 'market.com')));
  t.ok(performance.now() - started > 3000, 'six pages of 500 ms: longer than one deadline');
  t.equal(pages.filter((read) => read.items.length > 0).length, 6, 'all read');
  t.strictSame(lines.filter((line) => line.level !== 30), [], 'nothing logged');
});

t.test("a thread's start is not its first page's time: the deadline runs once its modules have loaded", async (t) => {
  const pageDeadlineMs = 1000;
  const { threads, lines } = helperThread('slow-start-parse-thread.mjs', { pageDeadlineMs });
  t.teardown(() => threads.close());
  const started = performance.now();
  t.ok((await threads.read(answerOf(PAGE), 'market.com')).items.length > 0, 'read');
  t.ok(performance.now() - started > 1500, 'after the 1.5 s start, longer than the deadline');
  t.strictSame(lines.filter((line) => line.level !== 30), [], 'nothing logged');
});

t.test("a page's body is moved to its thread when the Buffer owns its memory, copied when it is a slice", async (t) => {
  const { logger } = capturedLogger();
  const threads = new ParseThreads({ count: 1, logger, callingThread: NOT_ON_CALLING_THREAD });
  t.teardown(() => threads.close());
  const owned = Buffer.alloc(PAGE.length);
  PAGE.copy(owned);
  const expected = shapeOf(interpretSearchAnswer(answerOf(PAGE), 'market.com'));
  t.strictSame(shapeOf(await threads.read({ ...answerOf(''), body: owned }, 'market.com')), expected, 'read');
  t.equal(owned.length, 0, 'moved: the caller has it no more');
  const pool = Buffer.alloc(PAGE.length + 100);
  PAGE.copy(pool, 50);
  const slice = pool.subarray(50, 50 + PAGE.length);
  t.strictSame(shapeOf(await threads.read({ ...answerOf(''), body: slice }, 'market.com')), expected, 'read');
  t.equal(pool.length, PAGE.length + 100, 'copied: the larger buffer stays');
});

t.test('threads start when pages come; release stops those with no page waiting, then runs what follows; the next page starts one again', async (t) => {
  const { logger, lines } = capturedLogger();
  const threads = new ParseThreads({ count: 2, logger, callingThread: NOT_ON_CALLING_THREAD });
  t.teardown(() => threads.close());
  t.equal(threads.running, 0, 'none before a page');
  await threads.read(answerOf(PAGE), 'market.com');
  t.equal(threads.running, 1, 'one page, read alone: one thread');
  await Promise.all([threads.read(answerOf(PAGE), 'market.com'), threads.read(answerOf(PAGE), 'market.com')]);
  t.equal(threads.running, 2, 'two pages at once: two threads');
  const waiting = threads.read(answerOf(PAGE), 'market.com');
  let released = 0;
  const afterward = new Promise<void>((resolve) => threads.release(() => resolve(void (released += 1))));
  t.equal(threads.running, 1, 'the thread reading a page is kept');
  t.ok((await waiting).items.length > 0, 'and answers it');
  await afterward;
  t.equal(released, 1, 'what follows ran once the idle thread stopped');
  threads.release();
  t.equal(threads.running, 0, 'released, now idle too');
  t.ok((await threads.read(answerOf(PAGE), 'market.com')).items.length > 0, 'the next page starts a thread again');
  t.equal(threads.running, 1);
  t.strictSame(lines.filter((line) => line.level !== 30), [], 'no error logged: the stops were asked for');
});

t.test('closing fails what waits with service_unavailable, and refuses what comes after', async (t) => {
  const { logger } = capturedLogger();
  const threads = new ParseThreads({ count: 1, logger, callingThread: NOT_ON_CALLING_THREAD });
  const waiting = outcomeOf(() => threads.read(answerOf(PAGE), 'market.com'));
  await threads.close();
  const outcome = await waiting;
  t.ok('error' in outcome && outcome.error instanceof AppError && outcome.error.code === 'service_unavailable', 'the waiting page: service_unavailable');
  await t.rejects(threads.read(answerOf(PAGE), 'market.com'), { code: 'service_unavailable' });
});

t.test('a count that is not a whole number of threads is refused', async (t) => {
  const { logger } = capturedLogger();
  t.throws(() => new ParseThreads({ count: 0, logger, callingThread: NOT_ON_CALLING_THREAD }), RangeError);
  t.throws(() => new ParseThreads({ count: 1.5, logger, callingThread: NOT_ON_CALLING_THREAD }), RangeError);
});
