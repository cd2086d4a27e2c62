import type { z } from 'zod';
import { deliverySchema, TEST_EVENT_TYPE } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { WEBHOOK_TEST_EXAMPLE } from '../examples.js';
import { ownedWebhook } from './owned-webhook.js';
import { WEBHOOK_PATH } from './webhook-path.js';

/** `POST /v1/webhooks/{webhookId}/test`: a `webhook.test` delivery to the endpoint, attempted now. */
export function testWebhookRoute(deps: { accounts: AccountsClient; jobs: JobsClient }) {
  return defineRoute<undefined, z.output<typeof WEBHOOK_PATH.schema>>({
    method: 'POST',
    path: '/v1/webhooks/{webhookId}/test',
    operationId: 'testWebhook',
    summary: 'Send a test event to a webhook endpoint',
    description: `A \`${TEST_EVENT_TYPE}\` delivery, signed like any other, whatever events the endpoint subscribes to. Its outcome shows in the endpoint's deliveries.`,
    tag: 'Webhooks',
    params: WEBHOOK_PATH,
    errors: ['webhook_not_found'],
    success: { status: 202, schema: deliverySchema, description: 'The delivery, accepted' },
    example: WEBHOOK_TEST_EXAMPLE,
    handle: async (request) => {
      const owned = { workspaceId: request.principal.workspaceId, webhookId: request.params.webhookId };
      await ownedWebhook(deps.accounts, owned.workspaceId, owned.webhookId);
      const delivery = await deps.jobs.webhooks.test.mutate(owned);
      return { kind: 'json', status: 202, body: delivery, headers: NO_STORE };
    },
  });
}
