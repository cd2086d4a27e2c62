import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { sendTestDelivery } from '../../../webhooks/delivery-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.webhooks.test;

/** A `webhook.test` delivery, attempted now. */
export const sendTestDeliveryProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => sendTestDelivery(ctx.deliveries, input));
