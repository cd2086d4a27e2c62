import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { noteWebhookOutcome } from '../../webhooks/webhook-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.webhooks.noteOutcome;

/** An attempt's outcome; says whether the endpoint is disabled now. */
export const noteWebhookEndpointOutcome = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => noteWebhookOutcome(ctx.webhooks, input.webhookId, input.outcome));
