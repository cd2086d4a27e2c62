import type { z } from 'zod';
import { webhookDeletedSchema } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { WEBHOOK_DELETE_EXAMPLE } from '../examples.js';
import { WEBHOOK_PATH } from './webhook-path.js';

/** `DELETE /v1/webhooks/{webhookId}`: the endpoint and its secrets; nothing more is delivered to it. */
export function deleteWebhookRoute(deps: { accounts: AccountsClient }) {
  return defineRoute<undefined, z.output<typeof WEBHOOK_PATH.schema>>({
    method: 'DELETE',
    path: '/v1/webhooks/{webhookId}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: 'Its secrets go with it; nothing more is delivered to it.',
    tag: 'Webhooks',
    params: WEBHOOK_PATH,
    errors: ['webhook_not_found'],
    success: { status: 200, schema: webhookDeletedSchema, description: 'What was deleted' },
    example: WEBHOOK_DELETE_EXAMPLE,
    handle: async (request) => {
      const deleted = await deps.accounts.webhooks.delete.mutate({ workspaceId: request.principal.workspaceId, webhookId: request.params.webhookId });
      return { kind: 'json', status: 200, body: deleted, headers: NO_STORE };
    },
  });
}
