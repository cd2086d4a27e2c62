import { z } from 'zod';
import { historyRecordSchema } from '@comps/shared/accounts/history-record';
import { retryingDeadlocks } from '@comps/shared/db/with-transaction';
import { recordHistory as record } from '../../history/history-service.js';
import { procedure } from '../trpc.js';

export const recordHistoryInput = z.object({ entries: z.array(historyRecordSchema).min(1).max(500) });

export const recordHistory = procedure
  .input(recordHistoryInput)
  .output(z.object({ recorded: z.number().int() }))
  .mutation(async ({ ctx, input }) => {
    // Batches from several processes may upsert neighbouring rows at once: a deadlock victim goes again.
    await retryingDeadlocks(() => record(ctx.db, input.entries));
    return { recorded: input.entries.length };
  });
