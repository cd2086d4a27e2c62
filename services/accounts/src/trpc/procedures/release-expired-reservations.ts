import { releaseExpiredReservations as releaseExpired } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

/** What the periodic sweeper does, on demand (operators, tests). */
export const releaseExpiredReservations = procedure.mutation(async ({ ctx }) => ({
  released: await releaseExpired(ctx.ledger),
}));
