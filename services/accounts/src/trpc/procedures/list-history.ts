import { z } from 'zod';
import { LIMITS } from '@comps/shared/contract/limits';
import { historyEntrySchema } from '@comps/shared/contract/request-history';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { listHistory as list } from '../../history/history-service.js';
import { procedure } from '../trpc.js';

export const listHistoryInput = z.object({
  workspaceId: z.string().min(1).max(32),
  limit: z.number().int().min(LIMITS.historyPageSize.min).max(LIMITS.historyPageSize.max),
  beforeRequestId: z.string().regex(REQUEST_ID_PATTERN).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});

export const listHistory = procedure
  .input(listHistoryInput)
  .output(z.object({ entries: z.array(historyEntrySchema), continueBefore: z.string().nullable() }))
  .query(({ ctx, input }) => list(ctx.db, input, ctx.ledger.now()));
