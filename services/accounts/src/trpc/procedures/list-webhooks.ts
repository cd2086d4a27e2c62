import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { listWebhooks } from '../../webhooks/webhook-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.webhooks.list;

/** A workspace's endpoints, newest first (no secrets). */
export const listWebhookEndpoints = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => listWebhooks(ctx.webhooks, input.workspaceId));
