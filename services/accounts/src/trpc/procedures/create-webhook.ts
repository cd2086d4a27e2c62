import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { createWebhook } from '../../webhooks/webhook-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.webhooks.create;

/** 409 `webhook_limit` at the plan's number; 400 `invalid_webhook_url` for a URL the address rules refuse. The secret is in this answer only. */
export const createWebhookEndpoint = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => createWebhook(ctx.webhooks, input.workspaceId, input.webhookId, input.body));
