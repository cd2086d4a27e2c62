import { z } from 'zod';
import { historyRecordSchema } from '@comps/shared/accounts/history-record';
import { settleBatchOutcomeSchema } from '@comps/shared/accounts/quota';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { settleQuotaBatch as settleBatch } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

export const settleQuotaBatchInput = z.object({
  requestIds: z.array(z.string().regex(REQUEST_ID_PATTERN)).min(1).max(500),
  /** The charges' history entries, recorded in the same transaction. */
  history: z.array(historyRecordSchema).max(500).default([]),
});

export const settleQuotaBatch = procedure
  .input(settleQuotaBatchInput)
  .output(settleBatchOutcomeSchema)
  .mutation(({ ctx, input }) => settleBatch(ctx.ledger, input.requestIds, input.history));
