import type { Writable } from 'node:stream';
import PQueue from 'p-queue';
import type { BulkCompleteEvent, BulkErrorEvent, BulkProgressEvent, BulkResultEvent } from '@comps/shared/contract/bulk-events';
import { bulkKeywordQuery, type BulkSearchBody } from '@comps/shared/contract/bulk-search';
import type { ListingCollection } from '@comps/shared/contract/listing';
import { AppError } from '@comps/shared/errors/app-error';
import { EventStream } from '@comps/shared/http/event-stream';
import { newRequestId } from '@comps/shared/ids';
import type { Principal } from '@comps/shared/internal/accounts/principal';
import type { MarketCall } from '@comps/shared/market/market-call';
import type { Meter } from '@comps/shared/metering/meter';
import type { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { callRedis } from '@comps/shared/redis/redis-errors';
import { abortableSleep } from '@comps/shared/runtime/abortable-sleep';

export const BULK_PATH = '/api/bulk-search';

/** A keyword that would exceed the workspace's rate waits for the next window when that comes within this. */
const LONGEST_RATE_WAIT_S = 60;

/** Where pages are read, told how many are on their way (`ParseThreads`): its threads start while the answers come. */
export interface PagesAhead {
  expect(pages: number): void;
}

export interface BulkSearchDeps {
  meter: Meter;
  rateLimiter: FixedWindowLimiter;
  parseThreads?: PagesAhead;
  /** Stream comments while nothing else goes out (tests shorten it). */
  keepAliveMs?: number;
}

/**
 * Runs a bulk search, streaming its outcome to `out`: `progress` at the start and after each
 * keyword, one `result` or `error` per keyword, `complete` last; resolves once `complete` was
 * written. Each keyword is one metered call with its own request id and history entry, charged only
 * once its `result` event was handed to the socket. Keywords run concurrently up to the workspace's
 * concurrency (and the shared capacity), waiting their turn rather than failing; each counts against
 * the workspace's rate (the request itself counted the first), waiting for the next window when it
 * comes within a minute. A caller that leaves (the signal) stops it: keywords not started never
 * start, those in flight are abandoned and charged nothing.
 */
export async function runBulkSearch(deps: BulkSearchDeps, input: { principal: Principal; body: BulkSearchBody; signal: AbortSignal }, out: Writable): Promise<void> {
  const { principal, body, signal } = input;
  const events = new EventStream(out, deps.keepAliveMs);
  const total = body.keywords.length;
  const tally = { completed: 0, succeeded: 0, failed: 0, charged: 0 };
  const progress = (): BulkProgressEvent => ({ completed: tally.completed, total, succeeded: tally.succeeded, failed: tally.failed });
  const queue = new PQueue({ concurrency: Math.max(1, principal.plan.concurrency) });
  const history = { method: 'POST', path: BULK_PATH, jobId: null, apiKeyId: principal.apiKeyId, apiKeyPrefix: principal.apiKeyPrefix };
  const workspace = { id: principal.workspaceId, concurrency: principal.plan.concurrency };
  const callOf = (keyword: string): MarketCall => ({ kind: 'search', query: bulkKeywordQuery(body, keyword) });

  const fail = (index: number, keyword: string, requestId: string, error: AppError) => {
    tally.failed += 1;
    const event: BulkErrorEvent = { index, keyword, requestId, error: error.message, code: error.code, ...(error.retryAfter ? { retryAfter: error.retryAfter } : {}) };
    void events.send('error', event);
  };
  /** A keyword refused before its call ran still has its history entry. */
  const refuse = (index: number, keyword: string, requestId: string, error: AppError) => {
    deps.meter.recordRefusal({ requestId, workspace, call: callOf(keyword), history }, error);
    fail(index, keyword, requestId, error);
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

  /** One keyword's progress, sent right after its outcome. */
  const done = () => {
    tally.completed += 1;
    void events.send('progress', progress());
  };

  const runKeyword = async (index: number, keyword: string) => {
    const requestId = newRequestId();
    const callerLeft = () => signal.aborted && !(signal.reason instanceof AppError);
    try {
      // A caller that left needs no more events; one the service is leaving learns why each keyword failed.
      if (callerLeft()) return;
      const refused = signal.aborted ? (signal.reason as AppError) : await rateFor(index);
      if (callerLeft()) return;
      if (refused || signal.aborted) {
        refuse(index, keyword, requestId, refused ?? (signal.reason as AppError));
        return done();
      }
      const outcome = await deps.meter.run({
        workspace,
        requestId,
        call: callOf(keyword),
        signal,
        patience: 'patient',
        // The keywords that run at once are admitted together: the first asks for a block of quota for them all.
        together: Math.min(total, queue.concurrency),
        history,
        // Charged once its event was handed to the socket: a caller that hung up before gets it free.
        deliver: ({ value }) => {
          const { items, pagination, dataQuality, stats } = value as ListingCollection;
          const event: BulkResultEvent = { index, keyword, requestId, items, pagination, dataQuality, stats };
          const received = events.send('result', event);
          tally.succeeded += 1;
          done();
          return received;
        },
      });
      if (outcome.kind === 'delivered' && outcome.charged) tally.charged += 1;
      if (outcome.kind === 'failed' || outcome.kind === 'abandoned') {
        fail(index, keyword, requestId, outcome.error);
        done();
      }
    } catch (error) {
      // A dependency failed (Redis): this keyword fails; the others go on.
      refuse(index, keyword, requestId, error instanceof AppError ? error : new AppError('internal_error', 'Internal error', { cause: error }));
      done();
    }
  };

  void events.send('progress', progress());
  // Each keyword is a page to read, as many at once as the concurrency allows: threads that start only
  // as answers that came together are read would be ready after the last of them.
  deps.parseThreads?.expect(Math.min(total, queue.concurrency));
  // After an abort, each queued keyword returns at once without starting (the queue drains in no time).
  // Settled, not all: a keyword that threw past its own catch must not leave the stream unended.
  await Promise.allSettled(body.keywords.map((keyword, index) => queue.add(() => runKeyword(index, keyword))));
  const complete: BulkCompleteEvent = { total, succeeded: tally.succeeded, failed: tally.failed, charged: tally.charged };
  await events.send('complete', complete);
  events.stop();
}
