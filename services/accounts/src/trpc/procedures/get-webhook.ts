import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { getWebhook } from '../../webhooks/webhook-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.webhooks.get;

/** One endpoint of the workspace (no secret); another workspace's is `webhook_not_found`. */
export const getWebhookEndpoint = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => getWebhook(ctx.webhooks, input.workspaceId, input.webhookId));
