import { z } from 'zod';
import { queryInt } from '@comps/shared/contract/query-fields';
import { deliveryListSchema, WEBHOOK_LIMITS } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { DELIVERY_LIST_EXAMPLE } from '../examples.js';
import { ownedWebhook } from './owned-webhook.js';
import { WEBHOOK_PATH } from './webhook-path.js';

const { min, max, default: defaultLimit } = WEBHOOK_LIMITS.deliveriesPage;

/** The query of `GET …/deliveries`; unknown parameters are ignored. The cursor is the jobs service's, opaque (base64url, at most its 100 characters). */
export const deliveriesQuerySchema = z.object({
  limit: queryInt(min, max).default(defaultLimit).meta({ description: 'deliveries per page' }),
  cursor: z
    .string({ error: 'must be given once, as a single value' })
    .regex(/^[A-Za-z0-9_-]{1,100}$/, { error: 'must be a nextCursor from an earlier page' })
    .optional()
    .meta({ param: { type: 'string' }, description: 'the `nextCursor` of the page before' }),
});
export type DeliveriesQuery = z.output<typeof deliveriesQuerySchema>;

/** `GET /v1/webhooks/{webhookId}/deliveries`: the endpoint's deliveries of the last 30 days, newest first, a page at a time. */
export function listDeliveriesRoute(deps: { accounts: AccountsClient; jobs: JobsClient }) {
  return defineRoute<DeliveriesQuery, z.output<typeof WEBHOOK_PATH.schema>>({
    method: 'GET',
    path: '/v1/webhooks/{webhookId}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: `A webhook endpoint's deliveries of the last ${WEBHOOK_LIMITS.deliveryRetentionDays} days, newest first`,
    description: 'Each delivery with its status, its attempts, the last one\'s status code or error, and when the next is due. `nextCursor` reads the next page, null after the last.',
    tag: 'Webhooks',
    params: WEBHOOK_PATH,
    query: { schema: deliveriesQuerySchema, fields: deliveriesQuerySchema, message: 'Invalid query parameters' },
    errors: ['webhook_not_found'],
    success: { status: 200, schema: deliveryListSchema, description: 'A page of deliveries' },
    example: DELIVERY_LIST_EXAMPLE,
    handle: async (request) => {
      const owned = { workspaceId: request.principal.workspaceId, webhookId: request.params.webhookId };
      await ownedWebhook(deps.accounts, owned.workspaceId, owned.webhookId);
      const page = await deps.jobs.webhooks.deliveries.query({ ...owned, ...request.query });
      return { kind: 'json', status: 200, body: page, headers: NO_STORE, resultCount: page.deliveries.length };
    },
  });
}
