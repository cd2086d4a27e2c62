import type { ListingCollection, ListingQuery } from '@comps/shared/contract/listing';
import type { SellThroughParams } from '@comps/shared/contract/listing-params';
import { sellThroughAnswer, sellThroughSearches, type SellThrough } from '@comps/shared/contract/sell-through';
import type { EffectivePlan } from '@comps/shared/contract/usage';
import { AppError } from '@comps/shared/errors/app-error';
import { newRequestId } from '@comps/shared/ids';
import type { HistoryContext, Meter } from '@comps/shared/metering/meter';
import { meterTogether } from '@comps/shared/metering/meter-together';
import type { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { callRedis } from '@comps/shared/redis/redis-errors';
import type { TaskTracker } from '@comps/shared/runtime/task-tracker';
import type { Handover } from './handover.js';

export interface ExploreDeps {
  meter: Pick<Meter, 'run'>;
  /** The workspace's limits in force (concurrency and rate), as the api's principal carries them. */
  planOf: (workspaceId: string) => Promise<EffectivePlan>;
  /** The workspaces' request rates, shared with the api (the same counters). */
  rateLimiter: Pick<FixedWindowLimiter, 'consume'>;
  /** A charge is settled after its answer left: shutdown waits for it here. */
  charges: Pick<TaskTracker, 'track'>;
}

/** Where the dashboard's calls appear in the request history: the page that made them, with no key. */
const EXPLORE_HISTORY = {
  search: { method: 'POST', path: '/dashboard/explore', jobId: null, apiKeyId: null, apiKeyPrefix: null },
  sellThrough: { method: 'POST', path: '/dashboard/explore/sell-through', jobId: null, apiKeyId: null, apiKeyPrefix: null },
} satisfies Record<string, HistoryContext>;

/** A search for the dashboard: `GET /v1/scrape`'s answer, charged 1 once it was handed back. */
export async function exploreSearch(deps: ExploreDeps, workspaceId: string, query: ListingQuery, handover: Handover): Promise<ListingCollection> {
  const plan = await takeRate(deps, workspaceId, 1);
  const [collection] = await answerTogether(deps, { workspaceId, plan, requestId: newRequestId(), queries: [query], history: EXPLORE_HISTORY.search, handover });
  return collection!;
}

/** A sell-through for the dashboard: `GET /v1/sell-through`'s answer (its two searches), charged 2 once it was handed back. */
export async function exploreSellThrough(deps: ExploreDeps, workspaceId: string, params: SellThroughParams, handover: Handover): Promise<SellThrough> {
  const plan = await takeRate(deps, workspaceId, 2);
  const requestId = newRequestId();
  const [sold, active] = await answerTogether(deps, { workspaceId, plan, requestId, queries: sellThroughSearches(params), history: EXPLORE_HISTORY.sellThrough, handover });
  return sellThroughAnswer(params, sold!, active!, requestId);
}

/** The workspace's plan, once `calls` units of its rate were taken (each call counts, as on the api). */
async function takeRate(deps: ExploreDeps, workspaceId: string, calls: number): Promise<EffectivePlan> {
  const plan = await deps.planOf(workspaceId);
  const { requests, windowSeconds } = plan.rateLimit;
  for (let taken = 0; taken < calls; taken += 1) {
    const rate = await callRedis(() => deps.rateLimiter.consume(workspaceId, requests, windowSeconds));
    if (!rate.allowed) {
      const counts = calls > 1 ? ` (a sell-through counts ${calls} times)` : '';
      throw new AppError('rate_limited', `Rate limit of ${requests} requests per ${windowSeconds} s exceeded${counts}; retry after ${rate.resetSeconds} s`, { retryAfter: rate.resetSeconds });
    }
  }
  return plan;
}

/**
 * The searches' collections, metered as one request of the api (brief patience: a workspace at its
 * concurrency is refused at once): returned as soon as every search answered, so that the procedure
 * hands them back; each is charged once that answer was written whole (the charge settles after the
 * procedure returned, tracked by `charges`). A refusal or failure is thrown as its AppError.
 */
async function answerTogether(
  deps: ExploreDeps,
  request: { workspaceId: string; plan: EffectivePlan; requestId: string; queries: ListingQuery[]; history: HistoryContext; handover: Handover },
): Promise<ListingCollection[]> {
  let handBack!: (collections: ListingCollection[]) => void;
  const answered = new Promise<ListingCollection[]>((resolve) => (handBack = resolve));
  const metered = meterTogether(deps.meter, {
    workspace: { id: request.workspaceId, concurrency: request.plan.concurrency },
    calls: request.queries.map((query, index) => ({ requestId: index === 0 ? request.requestId : newRequestId(), call: { kind: 'search' as const, query } })),
    signal: request.handover.signal,
    patience: 'brief',
    history: request.history,
    deliver: (answers) => {
      handBack(answers.map((answer) => answer.value));
      return request.handover.received();
    },
  });
  // The answers arrive before the metered calls can end (they wait on the handover), unless a call failed.
  const first = await Promise.race([answered.then((collections) => ({ collections })), metered.then((outcome) => ({ outcome }))]);
  if ('collections' in first) {
    deps.charges.track(metered);
    return first.collections;
  }
  if (first.outcome.kind === 'failed') throw first.outcome.error;
  throw new Error('metered calls were handed over without their answers');
}
