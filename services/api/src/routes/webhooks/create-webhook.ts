import { WEBHOOK_LIMITS, webhookCreateSchema, webhookWithSecretSchema, type WebhookCreate } from '@comps/shared/contract/webhook';
import { newWebhookId } from '@comps/shared/ids';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { createdOnce } from '@comps/shared/internal/created-once';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { WEBHOOK_CREATE_EXAMPLE } from '../examples.js';

/** `POST /v1/webhooks`: an endpoint the service POSTs the workspace's events to, with its signing secret (shown this once). */
export function createWebhookRoute(deps: { accounts: AccountsClient }) {
  return defineRoute<undefined, undefined, WebhookCreate>({
    method: 'POST',
    path: '/v1/webhooks',
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint (beyond the specification)',
    description:
      `Deliveries are signed as the Standard Webhooks specification says, with \`secret\`: it is shown in this answer only (rotate it to get another). The URL must be \`https\` (unless the operator allows \`http\`), at most ${WEBHOOK_LIMITS.urlMaxLength} characters, and its host must not resolve to a loopback, private, link-local, unique-local or metadata address (400 \`invalid_webhook_url\`, with the reason). At most the plan's number of endpoints per workspace.`,
    tag: 'Webhooks',
    body: { schema: webhookCreateSchema, fields: webhookCreateSchema, message: 'Invalid request body' },
    errors: ['webhook_limit', 'invalid_webhook_url'],
    success: { status: 201, schema: webhookWithSecretSchema, description: 'The endpoint, with its secret' },
    example: WEBHOOK_CREATE_EXAMPLE,
    handle: async (request) => {
      const input = { workspaceId: request.principal.workspaceId, webhookId: newWebhookId(), body: request.body };
      const webhook = await createdOnce(() => deps.accounts.webhooks.create.mutate(input));
      return { kind: 'json', status: 201, body: webhook, headers: { ...NO_STORE, Location: `/v1/webhooks/${webhook.webhookId}` } };
    },
  });
}
