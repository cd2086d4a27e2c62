import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { listEndpointDeliveries } from '../../../webhooks/delivery-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.webhooks.deliveries;

/** An endpoint's deliveries of the last 30 days, newest first. */
export const listDeliveriesProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => listEndpointDeliveries(ctx.deliveries, input));
