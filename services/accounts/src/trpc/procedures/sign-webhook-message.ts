import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { signWebhookMessage } from '../../webhooks/webhook-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.webhooks.sign;

/** For a delivery attempt: the endpoint's URL, status and the message's signature (two during a rotation); null when the endpoint is gone. */
export const signWebhookEndpointMessage = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => signWebhookMessage(ctx.webhooks, input));
