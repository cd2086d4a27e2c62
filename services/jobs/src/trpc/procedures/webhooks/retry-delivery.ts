import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { retryDelivery } from '../../../webhooks/delivery-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.webhooks.retry;

/** Another attempt of a delivery, now. */
export const retryDeliveryProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => retryDelivery(ctx.deliveries, input));
