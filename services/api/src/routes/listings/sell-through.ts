import { sellThroughParamsObject, sellThroughParamsSchema, type SellThroughParams } from '@comps/shared/contract/listing-params';
import { sellThroughAnswer, sellThroughSchema, sellThroughSearches } from '@comps/shared/contract/sell-through';
import { AppError } from '@comps/shared/errors/app-error';
import type { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { callRedis } from '@comps/shared/redis/redis-errors';
import { defineRoute } from '../../http/route-definition.js';
import { SELL_THROUGH_EXAMPLE } from '../examples.js';

/**
 * `GET /v1/sell-through` (beyond the specification): the share of a search's listings that sold,
 * from the marketplace's own counts of its sold and active listings: two metered calls, answered
 * together, charged 2 when both succeed and nothing when either fails.
 */
export function sellThroughRoute(deps: { rateLimiter: FixedWindowLimiter }) {
  return defineRoute<SellThroughParams>({
    method: 'GET',
    path: '/v1/sell-through',
    operationId: 'getSellThrough',
    summary: 'Sold against active listings of a search (beyond the specification)',
    description:
      'Two upstream calls, the sold and the active search, answered when both succeed: charged 2 requests then, nothing when either fails (the error is that call\'s). It takes two of the workspace\'s concurrent requests and counts twice against its rate. `sellThrough` is null when both counts are 0 or either is unknown.',
    tag: 'Listings',
    query: { schema: sellThroughParamsSchema, fields: sellThroughParamsObject, message: 'Invalid query parameters' },
    market: 'call',
    facts: { from: 'query', searchText: 'keyword', site: true },
    success: { status: 200, schema: sellThroughSchema, description: 'The sold and active counts and their ratio' },
    example: SELL_THROUGH_EXAMPLE,
    handle: async (request) => {
      // The request itself counted once against the rate; its second call counts again.
      const { requests, windowSeconds } = request.principal.plan.rateLimit;
      const rate = await callRedis(() => deps.rateLimiter.consume(request.principal.workspaceId, requests, windowSeconds));
      if (!rate.allowed) throw new AppError('rate_limited', `Rate limit of ${requests} requests per ${windowSeconds} s exceeded (a sell-through counts twice); retry after ${rate.resetSeconds} s`, { retryAfter: rate.resetSeconds });
      const [sold, active] = sellThroughSearches(request.query);
      return request.answerWithCalls([{ kind: 'search' as const, query: sold }, { kind: 'search' as const, query: active }], ([soldAnswer, activeAnswer]) =>
        sellThroughAnswer(request.query, soldAnswer!, activeAnswer!, request.requestId),
      );
    },
  });
}
