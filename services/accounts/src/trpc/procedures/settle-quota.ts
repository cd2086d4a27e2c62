import { z } from 'zod';
import { settleOutcomeSchema } from '@comps/shared/accounts/quota';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { settleQuota as settle } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

export const settleQuotaInput = z.object({ requestId: z.string().regex(REQUEST_ID_PATTERN) });

export const settleQuota = procedure
  .input(settleQuotaInput)
  .output(settleOutcomeSchema)
  .mutation(({ ctx, input }) => settle(ctx.ledger, input.requestId));
