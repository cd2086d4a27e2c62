import { webhookListSchema } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { WEBHOOK_LIST_EXAMPLE } from '../examples.js';

/** `GET /v1/webhooks`: the workspace's endpoints (never their secrets). */
export function listWebhooksRoute(deps: { accounts: AccountsClient }) {
  return defineRoute({
    method: 'GET',
    path: '/v1/webhooks',
    operationId: 'listWebhooks',
    summary: "The workspace's webhook endpoints (beyond the specification)",
    tag: 'Webhooks',
    success: { status: 200, schema: webhookListSchema, description: 'The endpoints, without their secrets' },
    example: WEBHOOK_LIST_EXAMPLE,
    handle: async ({ principal }) => ({ kind: 'json', status: 200, body: await deps.accounts.webhooks.list.query({ workspaceId: principal.workspaceId }), headers: NO_STORE }),
  });
}
