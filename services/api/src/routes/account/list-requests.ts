import { historyPageSchema, historyQuerySchema, type HistoryPage, type HistoryQuery } from '@comps/shared/contract/request-history';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { decodeHistoryCursor, encodeHistoryCursor } from '../../history/history-cursor.js';
import { defineRoute } from '../../http/route-definition.js';
import { HISTORY_EXAMPLE } from '../examples.js';

/** `GET /requests`: the caller's request history, newest first, paged by an opaque cursor. Not charged. */
export function listRequestsRoute(deps: { accounts: AccountsClient }) {
  return defineRoute<HistoryQuery>({
    method: 'GET',
    path: '/requests',
    operationId: 'listRequests',
    summary: 'Request history of the caller, newest first',
    description: 'Entries are kept 30 days; search text is recorded only as `[redacted]`. Pass `nextCursor` back as `cursor` for the next page.',
    tag: 'Account',
    query: { schema: historyQuerySchema, fields: historyQuerySchema, message: 'Invalid query parameters' },
    success: { status: 200, schema: historyPageSchema, description: 'A page of the request history' },
    example: HISTORY_EXAMPLE,
    handle: async ({ principal, query }) => {
      const { workspaceId } = principal;
      const beforeRequestId = query.cursor === undefined ? undefined : decodeHistoryCursor(query.cursor, workspaceId);
      const page = await deps.accounts.history.list.query({
        workspaceId,
        limit: query.limit,
        ...(beforeRequestId ? { beforeRequestId } : {}),
        ...(query.from ? { from: query.from } : {}),
        ...(query.to ? { to: query.to } : {}),
      });
      const body: HistoryPage = { entries: page.entries, nextCursor: page.continueBefore ? encodeHistoryCursor(workspaceId, page.continueBefore) : null };
      return { kind: 'json', status: 200, body };
    },
  });
}
