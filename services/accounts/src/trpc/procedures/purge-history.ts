import { z } from 'zod';
import { purgeHistory as purge } from '../../history/history-service.js';
import { procedure } from '../trpc.js';

/** What the periodic purge does, on demand (operators, tests). */
export const purgeHistory = procedure
  .output(z.object({ deleted: z.number().int() }))
  .mutation(async ({ ctx }) => ({ deleted: await purge(ctx.db, ctx.ledger.now()) }));
