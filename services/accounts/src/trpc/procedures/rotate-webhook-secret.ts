import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { rotateWebhookSecret } from '../../webhooks/webhook-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.webhooks.rotateSecret;

/** A new secret (in this answer only); the old one keeps signing for 24 hours. */
export const rotateWebhookEndpointSecret = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.webhooks, input.workspaceId, input.webhookId));
