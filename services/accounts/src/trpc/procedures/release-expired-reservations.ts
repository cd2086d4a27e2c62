import { z } from 'zod';
import { releaseExpiredReservations as releaseExpired } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

/** What the periodic sweeper does, on demand (operators, tests). */
export const releaseExpiredReservations = procedure
  .output(z.object({ released: z.number().int() }))
  .mutation(async ({ ctx }) => ({ released: await releaseExpired(ctx.ledger) }));
