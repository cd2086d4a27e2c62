import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { webhookSubscribers } from '../../webhooks/webhook-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.webhooks.subscribers;

/** For the jobs service's fan-out: the enabled endpoints of a workspace subscribed to an event type. */
export const listWebhookSubscribers = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => webhookSubscribers(ctx.webhooks, input.workspaceId, input.eventType));
