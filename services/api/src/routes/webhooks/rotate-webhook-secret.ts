import type { z } from 'zod';
import { rotatedSecretSchema, WEBHOOK_LIMITS } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { WEBHOOK_ROTATE_SECRET_EXAMPLE } from '../examples.js';
import { WEBHOOK_PATH } from './webhook-path.js';

/** `POST /v1/webhooks/{webhookId}/secret`: a new signing secret, shown this once; the old one keeps signing for a while. */
export function rotateWebhookSecretRoute(deps: { accounts: AccountsClient }) {
  return defineRoute<undefined, z.output<typeof WEBHOOK_PATH.schema>>({
    method: 'POST',
    path: '/v1/webhooks/{webhookId}/secret',
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook endpoint's signing secret",
    description: `The new secret is shown in this answer only. Until \`previousSecretExpiresAt\` (${WEBHOOK_LIMITS.rotationOverlapMs / 3_600_000} hours), deliveries carry two signatures, one by each secret, so that receivers can switch without losing any.`,
    tag: 'Webhooks',
    params: WEBHOOK_PATH,
    errors: ['webhook_not_found'],
    success: { status: 200, schema: rotatedSecretSchema, description: 'The new secret' },
    example: WEBHOOK_ROTATE_SECRET_EXAMPLE,
    handle: async (request) => {
      const rotated = await deps.accounts.webhooks.rotateSecret.mutate({ workspaceId: request.principal.workspaceId, webhookId: request.params.webhookId });
      return { kind: 'json', status: 200, body: rotated, headers: NO_STORE };
    },
  });
}
