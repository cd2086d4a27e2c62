import { z } from 'zod';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { settleQuotaBatch as settleBatch } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

export const settleQuotaBatchInput = z.object({ requestIds: z.array(z.string().regex(REQUEST_ID_PATTERN)).min(1).max(500) });

export const settleQuotaBatch = procedure
  .input(settleQuotaBatchInput)
  .mutation(({ ctx, input }) => settleBatch(ctx.ledger, input.requestIds));
