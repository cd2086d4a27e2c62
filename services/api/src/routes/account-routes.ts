import { Router, type RouterMiddleware } from '@koa/router';
import { historyQuerySchema, type HistoryPage } from '@comps/shared/contract/request-history';
import type { Usage } from '@comps/shared/contract/usage';
import { parseOrThrow } from '@comps/shared/errors/zod-details';
import { callAccounts, type AccountsClient } from '../accounts/accounts-client.js';
import type { ApiState } from '../http/api-state.js';
import { decodeHistoryCursor, encodeHistoryCursor } from '../history/history-cursor.js';

/** `GET /usage` and `GET /requests`: the caller's own plan, quota and history. Neither is charged. */
export function accountRoutes(accounts: AccountsClient, guard: RouterMiddleware<ApiState>[]): Router<ApiState> {
  const router = new Router<ApiState>();

  router.get('/usage', ...guard, async (ctx) => {
    const { workspaceId } = ctx.state.principal!;
    const usage: Usage = await callAccounts(() => accounts.usage.get.query({ workspaceId }));
    ctx.state.quota = { limit: usage.plan.monthlyQuota, used: usage.used, remaining: usage.remaining };
    ctx.body = usage;
  });

  router.get('/requests', ...guard, async (ctx) => {
    const { workspaceId } = ctx.state.principal!;
    const query = parseOrThrow(historyQuerySchema, ctx.query, 'Invalid query parameters');
    const beforeRequestId = query.cursor === undefined ? undefined : decodeHistoryCursor(query.cursor, workspaceId);
    const page = await callAccounts(() =>
      accounts.history.list.query({
        workspaceId,
        limit: query.limit,
        ...(beforeRequestId ? { beforeRequestId } : {}),
        ...(query.from ? { from: query.from } : {}),
        ...(query.to ? { to: query.to } : {}),
      }),
    );
    const body: HistoryPage = {
      entries: page.entries,
      nextCursor: page.continueBefore ? encodeHistoryCursor(workspaceId, page.continueBefore) : null,
    };
    ctx.body = body;
  });

  return router;
}
