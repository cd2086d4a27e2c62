import type { z } from 'zod';
import { webhookSchema, webhookUpdateObject, webhookUpdateSchema, type WebhookUpdate } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { WEBHOOK_UPDATE_EXAMPLE } from '../examples.js';
import { WEBHOOK_PATH } from './webhook-path.js';

/** `PATCH /v1/webhooks/{webhookId}`: its URL, events, description, or status. */
export function updateWebhookRoute(deps: { accounts: AccountsClient }) {
  return defineRoute<undefined, z.output<typeof WEBHOOK_PATH.schema>, WebhookUpdate>({
    method: 'PATCH',
    path: '/v1/webhooks/{webhookId}',
    operationId: 'updateWebhook',
    summary: 'Change, disable or enable a webhook endpoint',
    description:
      'Any of `url`, `events`, `description` (null clears it), `status`; at least one. A new URL is checked as at registration (400 `invalid_webhook_url`). `disabled` stops deliveries (`disabledReason: "manual"`); `enabled` resumes them and clears `disabledReason`.',
    tag: 'Webhooks',
    params: WEBHOOK_PATH,
    body: { schema: webhookUpdateSchema, fields: webhookUpdateObject, message: 'Invalid request body' },
    errors: ['webhook_not_found', 'invalid_webhook_url'],
    success: { status: 200, schema: webhookSchema, description: 'The endpoint as changed' },
    example: WEBHOOK_UPDATE_EXAMPLE,
    handle: async (request) => {
      const webhook = await deps.accounts.webhooks.update.mutate({ workspaceId: request.principal.workspaceId, webhookId: request.params.webhookId, changes: request.body });
      return { kind: 'json', status: 200, body: webhook, headers: NO_STORE };
    },
  });
}
