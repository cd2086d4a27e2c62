import { z } from 'zod';
import { reserveOutcomeSchema } from '@comps/shared/accounts/quota';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { reserveQuota as reserve } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

export const reserveQuotaInput = z.object({
  workspaceId: z.string().min(1).max(32),
  requestId: z.string().regex(REQUEST_ID_PATTERN),
});

/** An exhausted quota is an answer (`ok: false`), not an error. */
export const reserveQuota = procedure
  .input(reserveQuotaInput)
  .output(reserveOutcomeSchema)
  .mutation(({ ctx, input }) => reserve(ctx.ledger, input));
