import { AsyncResource } from 'node:async_hooks';
import type { RequestListener } from 'node:http';

/** Runs `run` after `ms` unless the returned function cancels it first. */
export type Schedule = (run: () => void, ms: number) => () => void;

export interface IdleCollectorOptions {
  /** How long the process must have had nothing in flight before it collects. */
  idleMs: number;
  /** How far the resident memory must have grown since the last collection for another to be worth its pause. */
  minGrowthBytes: number;
  /** The collection: V8's garbage, then what the allocator holds free (idle-collection.ts). */
  collect: () => void;
  /** Runs at every idle moment after the collection (if one was made), grown or not: the parse threads stop there. */
  onIdle?: () => void;
  /** The process's resident memory, in bytes. */
  residentBytes: () => number;
  schedule: Schedule;
  /** Told what each collection freed. */
  onCollected: (figures: { beforeBytes: number; afterBytes: number; pauseMs: number }) => void;
  now: () => number;
}

/** The idle collections a process made since it started: how many, what they gave back, and their pauses. */
export interface IdleCollectionTotals {
  collections: number;
  /** Resident memory given back, summed over the collections (one that gave nothing back counts 0). */
  freedBytes: number;
  pauseSeconds: number;
}

/**
 * A garbage collection once the process has been idle for a while after work that grew it.
 *
 * Under load V8 collects the old generation only when it has grown by a factor of its last size, or
 * when external memory (the pages' text and bodies) has grown by 64 MB; and glibc keeps what is
 * freed inside its heap. So when the load stops, up to that much stays resident until the next
 * load, which a process that then sits idle never brings. One collection once the load has stopped
 * gives it back (bench:api). It never starts while work is in flight: its pause falls where nobody
 * waits, and a request that comes during it waits that long at most. The load after it takes the
 * memory back (page faults, V8's young generation regrowing), which is why the services wait for
 * seconds of quiet, not for the first gap between bursts (bench:bulk).
 */
export class IdleCollector {
  private inFlight = 0;
  private cancelWait: (() => void) | null = null;
  /** Resident memory after the last collection; null before the first. */
  private baselineBytes: number | null = null;
  private closed = false;
  private readonly tally: IdleCollectionTotals = { collections: 0, freedBytes: 0, pauseSeconds: 0 };

  constructor(private readonly options: IdleCollectorOptions) {}

  /** What the collections so far did (for /metrics). */
  totals(): IdleCollectionTotals {
    return { ...this.tally };
  }

  /** Work starts; the returned function ends it (once, however often it is called). */
  begin(): () => void {
    this.inFlight += 1;
    this.cancelWait?.();
    this.cancelWait = null;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
      if (this.inFlight === 0 && !this.closed) this.cancelWait = this.options.schedule(() => this.idle(), this.options.idleMs);
    };
  }

  /** No collection after this (shutdown). */
  close(): void {
    this.closed = true;
    this.cancelWait?.();
    this.cancelWait = null;
  }

  /** Whether no work is in flight now. */
  get isIdle(): boolean {
    return this.inFlight === 0;
  }

  private idle(): void {
    this.cancelWait = null;
    if (this.inFlight > 0 || this.closed) return;
    this.collectIfGrown();
    this.options.onIdle?.();
  }

  private collectIfGrown(): void {
    const beforeBytes = this.options.residentBytes();
    // The first idle moment always collects: what the start left (modules loaded, documents made) is garbage too.
    if (this.baselineBytes !== null && beforeBytes - this.baselineBytes < this.options.minGrowthBytes) return;
    const started = this.options.now();
    this.options.collect();
    const pauseMs = this.options.now() - started;
    const afterBytes = this.options.residentBytes();
    this.baselineBytes = afterBytes;
    this.tally.collections += 1;
    this.tally.freedBytes += Math.max(0, beforeBytes - afterBytes);
    this.tally.pauseSeconds += pauseMs / 1000;
    this.options.onCollected({ beforeBytes, afterBytes, pauseMs });
  }
}

/**
 * `schedule` on the event loop's timers, which do not keep the process alive. What it runs runs in
 * the context of this call, not in that of the request whose end scheduled it (whose id the log
 * lines would otherwise carry).
 */
export function timerSchedule(): Schedule {
  const context = new AsyncResource('IdleCollector');
  return (run, ms) => {
    const timer = setTimeout(() => context.runInAsyncScope(run), ms);
    timer.unref();
    return () => clearTimeout(timer);
  };
}

/**
 * Paths an operator's tools ask for on a schedule (health checks every few seconds, metrics
 * scrapes): counted as work, they would keep the process from ever being idle for the wait.
 */
const OPERATIONS_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * `handler`, with each request counted as `collector`'s work until its response closes (finished, or
 * its connection gone; a streamed body included), or its connection closes: a pipelined request's
 * response that never got the connection emits no close of its own. Health checks and metrics
 * scrapes are not work.
 */
export function countedAsWork(handler: RequestListener, collector: Pick<IdleCollector, 'begin'>): RequestListener {
  return (request, response) => {
    const path = request.url?.split('?', 1)[0] ?? '';
    if (OPERATIONS_PATHS.has(path)) {
      handler(request, response);
      return;
    }
    const endWork = collector.begin();
    const { socket } = request;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      // A kept-alive connection serves many requests: its listener goes with the request.
      socket.off('close', end);
      endWork();
    };
    socket.once('close', end);
    response.once('close', end);
    handler(request, response);
  };
}
