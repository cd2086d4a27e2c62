import type { z } from 'zod';
import { deliverySchema } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { DELIVERY_RETRY_EXAMPLE } from '../examples.js';
import { ownedWebhook } from './owned-webhook.js';
import { DELIVERY_PATH } from './webhook-path.js';

/** `POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry`: another attempt of a delivery, now. */
export function retryDeliveryRoute(deps: { accounts: AccountsClient; jobs: JobsClient }) {
  return defineRoute<undefined, z.output<typeof DELIVERY_PATH.schema>>({
    method: 'POST',
    path: '/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    operationId: 'retryWebhookDelivery',
    summary: 'Attempt a delivery again, now',
    description: 'With the same `webhook-id` (receivers de-duplicate by it). A failed delivery starts its retry schedule again.',
    tag: 'Webhooks',
    params: DELIVERY_PATH,
    errors: ['webhook_not_found', 'delivery_not_found'],
    success: { status: 202, schema: deliverySchema, description: 'The delivery, its attempt accepted' },
    example: DELIVERY_RETRY_EXAMPLE,
    handle: async (request) => {
      const { webhookId, deliveryId } = request.params;
      const { workspaceId } = request.principal;
      await ownedWebhook(deps.accounts, workspaceId, webhookId);
      const delivery = await deps.jobs.webhooks.retry.mutate({ workspaceId, webhookId, deliveryId });
      return { kind: 'json', status: 202, body: delivery, headers: NO_STORE };
    },
  });
}
