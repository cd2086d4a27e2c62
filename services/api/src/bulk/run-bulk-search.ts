import PQueue from 'p-queue';
import { type HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import { type Principal } from '@comps/shared/internal/accounts/principal';
import type { BulkCompleteEvent, BulkErrorEvent, BulkProgressEvent, BulkResultEvent } from '@comps/shared/contract/bulk-events';
import { bulkKeywordQuery, type BulkSearchBody } from '@comps/shared/contract/bulk-search';
import type { ListingCollection } from '@comps/shared/contract/listing';
import { AppError } from '@comps/shared/errors/app-error';
import { EventStream } from '@comps/shared/http/event-stream';
import { newRequestId } from '@comps/shared/ids';
import type { MarketCall } from '@comps/shared/market/market-call';
import type { Meter } from '@comps/shared/metering/meter';
import type { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { callRedis } from '@comps/shared/redis/redis-errors';
import { abortableSleep } from '@comps/shared/runtime/abortable-sleep';

export const BULK_PATH = '/api/bulk-search';

/** A keyword that would exceed the workspace's rate waits for the next window when that comes within this. */
const LONGEST_RATE_WAIT_S = 60;

export interface BulkSearchDeps {
  meter: Meter;
  rateLimiter: FixedWindowLimiter;
  /** Stream comments while nothing else goes out (tests shorten it). */
  keepAliveMs?: number;
}

export interface BulkSearchRun {
  stream: EventStream;
  /** One history entry per keyword that ran, as each finishes; ends with the stream. */
  records: AsyncIterable<HistoryRecord>;
}

/** A queue of records that a reader takes as they come. */
function recordChannel() {
  const waiting: HistoryRecord[] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  return {
    push(record: HistoryRecord) {
      waiting.push(record);
      wake?.();
    },
    close() {
      closed = true;
      wake?.();
    },
    async *read(): AsyncGenerator<HistoryRecord> {
      for (;;) {
        while (waiting.length > 0) yield waiting.shift()!;
        if (closed) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    },
  };
}

/**
 * Runs a bulk search and streams its outcome: `progress` at the start and after each keyword, one
 * `result` or `error` per keyword, `complete` last. Each keyword is one metered call with its own
 * request id, charge and history entry. Keywords run concurrently up to the workspace's concurrency
 * (and the shared capacity), waiting their turn rather than failing; each counts against the
 * workspace's rate (the request itself counted the first), waiting for the next window when it
 * comes within a minute. A caller that leaves (the signal) stops it: keywords not started never
 * start, those in flight are abandoned and charged nothing.
 */
export function runBulkSearch(deps: BulkSearchDeps, input: { principal: Principal; body: BulkSearchBody; signal: AbortSignal }): BulkSearchRun {
  const { principal, body, signal } = input;
  const stream = new EventStream(deps.keepAliveMs);
  const records = recordChannel();
  const total = body.keywords.length;
  const tally = { completed: 0, succeeded: 0, failed: 0, charged: 0 };
  const progress = (): BulkProgressEvent => ({ completed: tally.completed, total, succeeded: tally.succeeded, failed: tally.failed });
  const queue = new PQueue({ concurrency: Math.max(1, principal.plan.concurrency) });
  const history = { method: 'POST', path: BULK_PATH, jobId: null, apiKeyId: principal.apiKeyId, apiKeyPrefix: principal.apiKeyPrefix };
  const workspace = { id: principal.workspaceId, concurrency: principal.plan.concurrency };
  const callOf = (keyword: string): MarketCall => ({ kind: 'search', query: bulkKeywordQuery(body, keyword) });

  const fail = (index: number, keyword: string, requestId: string, error: AppError, recorded = true) => {
    tally.failed += 1;
    // Every keyword that was tried has its history entry (the meter made those of the calls it ran).
    if (!recorded) deps.meter.recordRefusal({ requestId, workspace, call: callOf(keyword), history }, error);
    const event: BulkErrorEvent = { index, keyword, requestId, error: error.message, code: error.code, ...(error.retryAfter ? { retryAfter: error.retryAfter } : {}) };
    stream.send('error', event);
  };

  /** Waits for room in the workspace's rate window; the refusal, when the wait would be too long. */
  const rateFor = async (keywordIndex: number): Promise<AppError | null> => {
    if (keywordIndex === 0) return null;
    const { requests, windowSeconds } = principal.plan.rateLimit;
    for (;;) {
      const decision = await callRedis(() => deps.rateLimiter.consume(principal.workspaceId, requests, windowSeconds));
      if (decision.allowed) return null;
      if (decision.resetSeconds > LONGEST_RATE_WAIT_S) {
        return new AppError('rate_limited', `Rate limit of ${requests} requests per ${windowSeconds} s exceeded; retry after ${decision.resetSeconds} s`, { retryAfter: decision.resetSeconds });
      }
      await abortableSleep(decision.resetSeconds * 1000, signal);
      if (signal.aborted) return null;
    }
  };

  const runKeyword = async (index: number, keyword: string) => {
    const requestId = newRequestId();
    if (signal.aborted) {
      // A caller that left needs no more events; one the service is leaving learns why each keyword failed.
      if (!(signal.reason instanceof AppError)) return;
      fail(index, keyword, requestId, signal.reason, false);
      tally.completed += 1;
      stream.send('progress', progress());
      return;
    }
    try {
      const refused = await rateFor(index);
      if (signal.aborted && !(signal.reason instanceof AppError)) return;
      if (refused || signal.aborted) {
        fail(index, keyword, requestId, refused ?? (signal.reason as AppError), false);
      } else {
        let answered: ListingCollection | undefined;
        const outcome = await deps.meter.run({
          workspace,
          requestId,
          call: callOf(keyword),
          signal,
          patience: 'patient',
          history,
          deliver: async ({ value }) => {
            answered = value as ListingCollection;
            return true;
          },
        });
        if (outcome.kind === 'delivered') {
          tally.succeeded += 1;
          tally.charged += outcome.charged ? 1 : 0;
          const { items, pagination, dataQuality } = answered!;
          const event: BulkResultEvent = { index, keyword, requestId, items, pagination, dataQuality };
          stream.send('result', event);
        } else if (outcome.kind !== 'undelivered') {
          fail(index, keyword, requestId, outcome.error);
        }
      }
    } catch (error) {
      // A dependency failed (Redis, accounts): this keyword fails; the others go on.
      fail(index, keyword, requestId, error instanceof AppError ? error : new AppError('internal_error', 'Internal error', { cause: error }), false);
    }
    tally.completed += 1;
    stream.send('progress', progress());
  };

  stream.send('progress', progress());
  // After an abort, each queued keyword returns at once without starting (the queue drains in no time).
  // Settled, not all: a keyword that threw past its own catch must not leave the stream unended.
  void Promise.allSettled(body.keywords.map((keyword, index) => queue.add(() => runKeyword(index, keyword)))).finally(() => {
    const complete: BulkCompleteEvent = { total, succeeded: tally.succeeded, failed: tally.failed, charged: tally.charged };
    stream.send('complete', complete);
    stream.end();
    records.close();
  });
  return { stream, records: records.read() };
}
