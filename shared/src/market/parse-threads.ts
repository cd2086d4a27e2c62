import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../contract/error-codes.js';
import type { MarketSite } from '../contract/market-sites.js';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/create-logger.js';
import type { LayoutWatch } from './layout-watch.js';
import type { SearchAnswerReader } from './market-client.js';
import type { FetchedPage } from './fetch/fetch-page.js';
import type { JoinBytes } from '../runtime/one-byte-text.js';
import type { ParsedSearchPage } from './parse/search-page.js';
import { threadExecArgv } from '../runtime/thread-exec-argv.js';

/** A search answer sent to a parse thread: its body's chunks, or the one buffer they were joined into, moved there (see PageBytes.forThread). */
export interface ParseRequest {
  id: number;
  status: number;
  body: Uint8Array[];
  url: string;
  retryAfterSeconds: number | null;
  site: MarketSite;
}

/** A parse thread's answer: the parsed page or the contract's error; an unrecognized layout for the layout watch; a bug's stack. */
export type ParseReply = ({ id: number; page: ParsedSearchPage } | { id: number; error: { code: ErrorCode; message: string; retryAfter?: number }; failure?: string }) & {
  layout?: { rowClasses: string | null };
};

/** The threads and the pages they read, for the service's metrics. */
export interface ParseThreadFigures {
  /** Threads loading their modules. */
  starting: number;
  /** Threads ready to read pages. */
  ready: number;
  /** Pages handed to a thread, since the service started. */
  pagesInThreads: number;
  /** Pages read on the calling thread (no thread was ready), since the service started. */
  pagesOnCallingThread: number;
}

/** What a thread says once its module has loaded, before it reads a page. */
export const THREAD_READY = 'ready';

type ThreadMessage = ParseReply | typeof THREAD_READY;

interface Thread {
  worker: Worker;
  /** Requests sent to it and not answered yet, in the order sent: a thread reads them in that order, so the first is the one it is reading. */
  pending: Map<number, { resolve: (page: ParsedSearchPage) => void; reject: (error: AppError) => void; site: MarketSite; url: string }>;
  /** Stopped on purpose: its exit is no failure. */
  stopping: boolean;
  /** Its module has loaded: only then are pages sent to it (a page does not wait for a thread's start). */
  ready: boolean;
  /** It said it was ready once (`ready` is taken back from a thread being stopped): its exit is no failed start. */
  loaded: boolean;
  /** When the page it is reading has had its time (`pageDeadlineMs`), set while a page waits; before it is ready, when its start has (`startDeadlineMs`). */
  deadline: NodeJS.Timeout | undefined;
}

/**
 * The longest a thread may read one page, from when it begins it. A page takes 3–40 ms (bench:parse,
 * bench:jobs); a page still unread after this has met a bug that never ends (a loop), which would
 * otherwise hold its page and those behind it for good, in a process that looks healthy: on the
 * calling thread the same bug would stop the whole process, loudly.
 */
const PAGE_DEADLINE_MS = 10_000;

/**
 * The longest a thread may take to become ready. A start takes 300–500 ms here, and seconds on a loaded
 * machine; one that neither loads nor exits would hold its slot for good, every page then read on the
 * calling thread. Generous: meanwhile the pages are read, only not beside the calling thread.
 */
const START_DEADLINE_MS = 60_000;

/**
 * After a thread exits before it is ready, does not become ready in time (its modules failed to
 * load: a broken deployment, which every new thread would meet again) or is refused by Node, no thread
 * is started for this long, doubling at each such start up to `MAX_START_BACKOFF_MS` (starts that fail while
 * the wait holds, threads started together for pages expected, count once); meanwhile pages go to threads that
 * are ready, or are read on the calling thread. A thread that becomes ready ends the backoff.
 */
const FIRST_START_BACKOFF_MS = 1000;
const MAX_START_BACKOFF_MS = 60_000;

/**
 * A thread starts only for this page read since the last idle moment (`release`), and those after it.
 * A thread's start costs 340–450 ms of CPU (a V8 isolate made, its modules loaded and compiled), about
 * 15 times a page's read (25 ms): under light traffic (a tracked search's run of one or two pages, a
 * one-page job, each followed by an idle moment), a thread started for a lone page was stopped at the
 * next idle moment without having read one. Pages that keep coming start it at their third.
 */
const PAGES_BEFORE_START = 3;

export interface ParseThreadsOptions {
  count: number;
  layoutWatch?: Pick<LayoutWatch, 'record'> | undefined;
  logger: Logger;
  /** Reads the pages that find no thread ready: while one starts, or while none may (see `FIRST_START_BACKOFF_MS`). */
  callingThread: SearchAnswerReader;
  /**
   * Joins a page's chunks (several, of 64 KB or more in all) into the one buffer moved to the thread (the
   * native helper's); without it the chunks are moved as they are, and the thread joins them.
   */
  joinBytes?: JoinBytes | undefined;
  /** Milliseconds, for the start backoff (tests give a clock they move). */
  now?: () => number;
  /** The threads' module (tests give one that can be made to die). */
  entry?: URL;
  /** The longest a thread may read one page (tests give a shorter one). */
  pageDeadlineMs?: number;
  /** The longest a thread may take to become ready (tests give a shorter one). */
  startDeadlineMs?: number;
  /** The page since the last idle moment that may start a thread (tests give 1: every page may). */
  pagesBeforeStart?: number;
}

/**
 * Search answers read in worker threads (`MarketClient`'s reader where `API_PARSE_THREADS` or
 * `JOBS_PARSE_THREADS` is above 0). A page's parse is tens of milliseconds of CPU in one piece: on the
 * calling thread it holds up everything else the process does (a job's statements to MariaDB waited
 * behind it), while a thread parses beside it. Each answer's bytes are moved to the thread with the
 * fewest pages waiting, and its parsed page is cloned back (a few hundred rows: about a millisecond).
 * Threads start when pages keep coming (the third since the service was last idle), or ahead for pages
 * the caller expects together (`expect`), and stop when it is idle (`release`); a page that finds no
 * thread ready is read on the calling thread rather than wait for a start (a thread's modules load in 300–500 ms on these machines, several pages' time:
 * waiting for it made a job's first page late by as much). A thread that dies (its memory exhausted,
 * an answer that cannot be cloned) fails its waiting pages with `service_unavailable` (retryable: a
 * job's page is tried again, a search is answered 503 and not charged); the next page starts another.
 * A page whose reading throws is `internal_error`, as on the calling thread (a bug: the same page
 * would fail again); so is a page still unread after its deadline, whose thread is then stopped (the
 * pages behind it fail as when a thread dies).
 */
export class ParseThreads implements SearchAnswerReader {
  /** One slot a thread; empty until a page needs it, and again once `release` stopped it. */
  private readonly slots: Array<Thread | undefined>;
  /** Threads being stopped (released, or at close) and what follows a release: awaited by close. */
  private readonly background = new Set<Promise<unknown>>();
  private readonly layoutWatch: Pick<LayoutWatch, 'record'> | undefined;
  private readonly logger: Logger;
  private readonly entry: URL;
  private readonly pageDeadlineMs: number;
  private readonly startDeadlineMs: number;
  private readonly callingThread: SearchAnswerReader;
  private readonly joinBytes: JoinBytes | undefined;
  private readonly now: () => number;
  private readonly pagesBeforeStart: number;
  /** Pages read since the last idle moment (`release`), wherever read. */
  private pagesSinceIdle = 0;
  private pagesInThreads = 0;
  private pagesOnCallingThread = 0;
  private nextId = 0;
  private closed = false;
  /** Failed starts (exits before ready, refusals, start deadlines; those failing while the wait holds counted once) since a thread last became ready; and until when none is started. */
  private failedStarts = 0;
  private noStartUntil = Number.NEGATIVE_INFINITY;

  constructor({
    count,
    layoutWatch,
    logger,
    callingThread,
    joinBytes,
    now = () => performance.now(),
    entry = new URL('./parse-thread-main.js', import.meta.url),
    pageDeadlineMs = PAGE_DEADLINE_MS,
    startDeadlineMs = START_DEADLINE_MS,
    pagesBeforeStart = PAGES_BEFORE_START,
  }: ParseThreadsOptions) {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`parse threads: ${count} is not a count of threads`);
    if (!Number.isInteger(pagesBeforeStart) || pagesBeforeStart < 1) throw new RangeError(`parse threads: ${pagesBeforeStart} is not a count of pages`);
    this.slots = Array.from({ length: count }, () => undefined);
    this.layoutWatch = layoutWatch;
    this.logger = logger;
    this.callingThread = callingThread;
    this.joinBytes = joinBytes;
    this.now = now;
    this.entry = entry;
    this.pageDeadlineMs = pageDeadlineMs;
    this.startDeadlineMs = startDeadlineMs;
    this.pagesBeforeStart = pagesBeforeStart;
  }

  /** Threads running now, ready or starting. */
  get running(): number {
    return this.slots.filter(Boolean).length;
  }

  /** Threads ready to read pages. */
  get ready(): number {
    return this.slots.filter((thread) => thread?.ready).length;
  }

  figures(): ParseThreadFigures {
    const { running, ready } = this;
    return { starting: running - ready, ready, pagesInThreads: this.pagesInThreads, pagesOnCallingThread: this.pagesOnCallingThread };
  }

  /**
   * Takes the answer's body: joined into one buffer and moved to the thread (`joinBytes`), else each
   * chunk moved where it owns its memory whole (the caller's chunk is then empty) and its bytes alone
   * copied and moved where not, never the rest of a pool, for the thread to put together (`PageBytes.forThread`).
   */
  read(answer: FetchedPage, site: MarketSite): Promise<ParsedSearchPage> {
    if (this.closed) return Promise.reject(new AppError('service_unavailable', 'The service is shutting down'));
    this.pagesSinceIdle += 1;
    const thread = this.leastBusy();
    if (!thread) {
      this.pagesOnCallingThread += 1;
      return this.callingThread.read(answer, site);
    }
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      try {
        const { parts, moved } = answer.body.forThread(this.joinBytes);
        const request: ParseRequest = { id, status: answer.status, body: parts, url: answer.url, retryAfterSeconds: answer.retryAfterSeconds, site };
        thread.worker.postMessage(request, moved);
      } catch (error) {
        reject(new AppError('internal_error', 'Internal error', { cause: error }));
        return;
      }
      this.pagesInThreads += 1;
      if (thread.pending.size === 0) thread.worker.ref();
      thread.pending.set(id, { resolve, reject, site, url: answer.url });
      if (thread.pending.size === 1) this.armDeadline(thread);
    });
  }

  /**
   * Pages the caller knows are on their way together (a bulk search's keywords, as many at once as its
   * concurrency allows): threads are started for them now, while their answers come, rather than by the
   * pages themselves, which would find none ready (a start takes 300–500 ms, and pages that arrive
   * together are all read before then). They count as pages read towards a thread's start
   * (`PAGES_BEFORE_START`), so a handful starts none, as it would as it came; otherwise they want one
   * thread per `PAGES_BEFORE_START` of them, and the threads running or starting count towards that.
   * Pages do not wait for these starts either.
   */
  expect(pages: number): void {
    if (this.closed || !(pages > 0) || this.pagesSinceIdle + pages < this.pagesBeforeStart) return;
    let starts = Math.max(1, Math.floor(pages / this.pagesBeforeStart)) - this.running;
    for (const [index, thread] of this.slots.entries()) {
      // Starts held back (a failed one, here or before) wait as the pages' own would.
      if (starts <= 0 || this.now() < this.noStartUntil) break;
      if (thread) continue;
      this.slots[index] = this.start();
      starts -= 1;
    }
  }

  /**
   * Stops the ready threads that have no page waiting (the service's idle collection): a thread's heap,
   * with the garbage of the pages it read, is its own, which the process's collection does not reach;
   * pages count again from here, and the third starts a thread again (`PAGES_BEFORE_START`; its first
   * pages read slower, until V8 has optimized the parser). A thread still starting is kept (it holds no
   * pages' garbage yet; an idle moment once it is ready stops it). `afterward` runs once they have
   * stopped (glibc's free pages given back).
   */
  release(afterward?: () => void): void {
    this.pagesSinceIdle = 0;
    const stopped: Array<Promise<unknown>> = [];
    for (const [index, thread] of this.slots.entries()) {
      if (!thread?.ready || thread.pending.size > 0) continue;
      this.slots[index] = undefined;
      stopped.push(this.stop(thread));
    }
    if (stopped.length > 0 && afterward) this.track(Promise.all(stopped).then(afterward));
  }

  /** Pages still waiting fail with `service_unavailable` at once; then the threads stop. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [index, thread] of this.slots.entries()) {
      if (!thread) continue;
      this.slots[index] = undefined;
      this.failPending(thread, new AppError('service_unavailable', 'The service is shutting down'));
      this.stop(thread);
    }
    await Promise.all(this.background);
  }

  /**
   * The ready thread with the fewest pages waiting, or none (the page is then read on the calling
   * thread). When no thread is ready or each ready one has pages waiting, another is started in an
   * empty slot, one at a time (pages that come one after another while it starts need no second one),
   * once pages keep coming (`PAGES_BEFORE_START`) and unless starts are held back: it takes pages once
   * it is ready.
   */
  private leastBusy(): Thread | undefined {
    let least: Thread | undefined;
    let starting = false;
    for (const thread of this.slots) {
      if (thread && !thread.ready) starting = true;
      else if (thread && (!least || thread.pending.size < least.pending.size)) least = thread;
    }
    if (least && least.pending.size === 0) return least;
    const empty = this.slots.indexOf(undefined);
    if (empty !== -1 && !starting && this.pagesSinceIdle >= this.pagesBeforeStart && this.now() >= this.noStartUntil) this.slots[empty] = this.start();
    return least;
  }

  private stop(thread: Thread): Promise<unknown> {
    thread.stopping = true;
    clearTimeout(thread.deadline);
    return this.track(thread.worker.terminate());
  }

  /** The first page waiting is the one the thread reads now: it has until the deadline (none while nothing waits). */
  private armDeadline(thread: Thread): void {
    clearTimeout(thread.deadline);
    thread.deadline = thread.ready && thread.pending.size > 0 ? setTimeout(() => this.overran(thread), this.pageDeadlineMs).unref() : undefined;
  }

  /** The page being read had its time: it fails as a bug does, the thread is stopped, and the pages behind it fail as when a thread dies. */
  private overran(thread: Thread): void {
    const [reading] = thread.pending.entries();
    if (!reading) return;
    const [id, waiter] = reading;
    this.logger.error({ url: waiter.url, deadlineMs: this.pageDeadlineMs, pagesFailed: thread.pending.size }, 'a parse thread did not read a page in time; the thread is stopped');
    thread.pending.delete(id);
    waiter.reject(new AppError('internal_error', 'Internal error'));
    this.lose(thread);
    this.stop(thread);
  }

  private track(work: Promise<unknown>): Promise<unknown> {
    const tracked = work.catch((error: unknown) => this.logger.error({ err: error }, 'stopping parse threads, or what follows, failed')).finally(() => this.background.delete(tracked));
    this.background.add(tracked);
    return tracked;
  }

  /** A thread started in an empty slot; none when Node refuses to start one (a failed start: later starts are held back). */
  private start(): Thread | undefined {
    // The process's options, unless they preload code: a thread runs our parser alone (see threadExecArgv).
    const execArgv = threadExecArgv(process.execArgv);
    let worker: Worker;
    try {
      worker = new Worker(this.entry, execArgv ? { execArgv } : {});
    } catch (error) {
      this.logger.error({ err: error, waitMs: this.holdBackStarts() }, 'a parse thread could not be started; pages are read on the calling thread until another may start');
      return undefined;
    }
    // An idle thread does not keep the process alive; one with pages waiting does (see read and answer).
    worker.unref();
    const thread: Thread = { worker, pending: new Map(), stopping: false, ready: false, loaded: false, deadline: undefined };
    thread.deadline = setTimeout(() => this.startOverran(thread), this.startDeadlineMs).unref();
    worker.on('message', (message: ThreadMessage) => {
      // A thread stopped on purpose has no page left to answer, and its ready message, sent just as its start
      // deadline passed (messages already sent arrive after the stop), must not end the wait its failed start set.
      if (thread.stopping) return;
      if (message !== THREAD_READY) return this.answer(thread, message);
      clearTimeout(thread.deadline);
      thread.deadline = undefined;
      thread.ready = true;
      thread.loaded = true;
      this.failedStarts = 0;
      this.noStartUntil = Number.NEGATIVE_INFINITY;
    });
    worker.on('error', (error) => this.logger.error({ err: error }, 'a parse thread failed'));
    // A reply that cannot be read leaves a page unanswered whose id is unknown: the thread goes, failing its pages.
    worker.on('messageerror', (error) => {
      this.logger.error({ err: error }, "a parse thread's answer could not be read; the thread is stopped");
      // No new page goes to it; its exit fails those it has (not the deadline meanwhile: this is no overrun).
      clearTimeout(thread.deadline);
      thread.ready = false;
      this.vacate(thread);
      this.track(worker.terminate());
    });
    worker.on('exit', (code) => {
      if (thread.stopping) return;
      if (thread.loaded) {
        this.logger.error({ exitCode: code, pagesFailed: thread.pending.size }, 'a parse thread exited; the next page starts another');
      } else {
        // No page was sent to it: those that came meanwhile were read on the calling thread.
        this.logger.error({ exitCode: code, waitMs: this.holdBackStarts() }, 'a parse thread exited before it was ready; pages are read on the calling thread until another may start');
      }
      this.lose(thread);
    });
    return thread;
  }

  /** A thread that has not become ready in its time: stopped, a failed start as if it had exited. */
  private startOverran(thread: Thread): void {
    this.logger.error(
      { deadlineMs: this.startDeadlineMs, waitMs: this.holdBackStarts() },
      'a parse thread did not become ready in time; it is stopped, and pages are read on the calling thread until another may start',
    );
    this.vacate(thread);
    this.stop(thread);
  }

  /**
   * After a failed start, the next would most likely fail the same way: none for a while, longer each time. Returns the
   * wait. Starts that fail while a wait holds (threads started together for pages expected) are one failure: the wait
   * they found stands, and what is left of it is returned (and logged).
   */
  private holdBackStarts(): number {
    if (this.now() < this.noStartUntil) return this.noStartUntil - this.now();
    const waitMs = Math.min(MAX_START_BACKOFF_MS, FIRST_START_BACKOFF_MS * 2 ** this.failedStarts);
    this.noStartUntil = this.now() + waitMs;
    this.failedStarts += 1;
    return waitMs;
  }

  private vacate(thread: Thread): void {
    const index = this.slots.indexOf(thread);
    if (index !== -1) this.slots[index] = undefined;
  }

  private answer(thread: Thread, reply: ParseReply): void {
    const waiter = thread.pending.get(reply.id);
    if (!waiter) return;
    thread.pending.delete(reply.id);
    if (thread.pending.size === 0) thread.worker.unref();
    // The next page waiting is read from now on.
    this.armDeadline(thread);
    if ('page' in reply) return waiter.resolve(reply.page);
    if (reply.layout) this.layoutWatch?.record(waiter.site, reply.layout.rowClasses);
    if (reply.failure) this.logger.error({ err: { message: reply.failure } }, 'a parse thread could not read a page');
    const { code, message, retryAfter } = reply.error;
    waiter.reject(new AppError(code, message, retryAfter === undefined ? {} : { retryAfter }));
  }

  /** A thread gone wrong: its pages fail as retryable (`service_unavailable`, uncharged), its deadline ends, and the next page starts another. */
  private lose(thread: Thread): void {
    clearTimeout(thread.deadline);
    this.failPending(thread, new AppError('service_unavailable', 'The page could not be read; try again'));
    this.vacate(thread);
  }

  private failPending(thread: Thread, error: AppError): void {
    for (const waiter of thread.pending.values()) waiter.reject(error);
    thread.pending.clear();
  }
}
