import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { updateWebhook } from '../../webhooks/webhook-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.webhooks.update;

/** A new URL is checked again; enabling clears the disabled reason and the failing streak, disabling is `manual`. */
export const updateWebhookEndpoint = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => updateWebhook(ctx.webhooks, input.workspaceId, input.webhookId, input.changes));
