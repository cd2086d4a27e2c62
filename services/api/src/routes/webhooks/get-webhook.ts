import type { z } from 'zod';
import { webhookSchema } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { WEBHOOK_GET_EXAMPLE } from '../examples.js';
import { WEBHOOK_PATH } from './webhook-path.js';

/** `GET /v1/webhooks/{webhookId}`: the endpoint (no secret). */
export function getWebhookRoute(deps: { accounts: AccountsClient }) {
  return defineRoute<undefined, z.output<typeof WEBHOOK_PATH.schema>>({
    method: 'GET',
    path: '/v1/webhooks/{webhookId}',
    operationId: 'getWebhook',
    summary: 'A webhook endpoint',
    description: '`disabledReason` says why a disabled endpoint is: `gone` (it answered 410), `failing` (its deliveries all failed for 5 days) or `manual`.',
    tag: 'Webhooks',
    params: WEBHOOK_PATH,
    errors: ['webhook_not_found'],
    success: { status: 200, schema: webhookSchema, description: 'The endpoint, without its secret' },
    example: WEBHOOK_GET_EXAMPLE,
    handle: async (request) => {
      const webhook = await deps.accounts.webhooks.get.query({ workspaceId: request.principal.workspaceId, webhookId: request.params.webhookId });
      return { kind: 'json', status: 200, body: webhook, headers: NO_STORE };
    },
  });
}
