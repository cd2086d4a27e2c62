import { z } from 'zod';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { releaseQuota as release } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

export const releaseQuotaInput = z.object({ requestId: z.string().regex(REQUEST_ID_PATTERN) });

export const releaseQuota = procedure
  .input(releaseQuotaInput)
  .output(z.object({ released: z.boolean() }))
  .mutation(({ ctx, input }) => release(ctx.ledger, input.requestId));
