import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { deleteWebhook } from '../../webhooks/webhook-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.webhooks.delete;

/** Deletes the endpoint's row (and with it its secrets). */
export const deleteWebhookEndpoint = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => deleteWebhook(ctx.webhooks, input.workspaceId, input.webhookId));
