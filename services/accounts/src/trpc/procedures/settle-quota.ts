import { z } from 'zod';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { settleQuota as settle } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

export const settleQuotaInput = z.object({ requestId: z.string().regex(REQUEST_ID_PATTERN) });

export const settleQuota = procedure
  .input(settleQuotaInput)
  .mutation(({ ctx, input }) => settle(ctx.ledger, input.requestId));
