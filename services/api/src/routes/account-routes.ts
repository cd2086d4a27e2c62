import { Router } from '@koa/router';
import { type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { historyQuerySchema, type HistoryPage } from '@comps/shared/contract/request-history';
import { parseOrThrow } from '@comps/shared/errors/zod-details';
import type { SettlementOutbox } from '@comps/shared/metering/settlement-outbox';
import { authenticatedRoute, type AuthenticatedRouteDeps } from '../http/authenticated-route.js';
import { decodeHistoryCursor, encodeHistoryCursor } from '../history/history-cursor.js';
import { readUsage } from '../usage/read-usage.js';

const NOTHING_SEARCHED = { describe: () => ({ marketSite: null, hasKeyword: false }) };

/** `GET /usage` and `GET /requests`: the caller's own plan, quota and history. Neither is charged. */
export function accountRoutes(deps: { route: AuthenticatedRouteDeps; accounts: AccountsClient; settlements: SettlementOutbox }): Router {
  const router = new Router();

  router.get(
    '/usage',
    authenticatedRoute(deps.route, NOTHING_SEARCHED, async ({ principal }) => {
      const usage = await readUsage(deps, principal.workspaceId);
      return { status: 200, body: usage, quota: { limit: usage.plan.monthlyQuota, used: usage.used, remaining: usage.remaining } };
    }),
  );

  router.get(
    '/requests',
    authenticatedRoute(deps.route, NOTHING_SEARCHED, async (request) => {
      const { workspaceId } = request.principal;
      const query = parseOrThrow(historyQuerySchema, request.query, 'Invalid query parameters');
      const beforeRequestId = query.cursor === undefined ? undefined : decodeHistoryCursor(query.cursor, workspaceId);
      const page = await deps.accounts.history.list.query({
        workspaceId,
        limit: query.limit,
        ...(beforeRequestId ? { beforeRequestId } : {}),
        ...(query.from ? { from: query.from } : {}),
        ...(query.to ? { to: query.to } : {}),
      });
      const body: HistoryPage = {
        entries: page.entries,
        nextCursor: page.continueBefore ? encodeHistoryCursor(workspaceId, page.continueBefore) : null,
      };
      return { status: 200, body };
    }),
  );

  return router;
}
