import { purgeHistory as purge } from '../../history/history-service.js';
import { procedure } from '../trpc.js';

/** What the periodic purge does, on demand (operators, tests). */
export const purgeHistory = procedure.mutation(async ({ ctx }) => ({ deleted: await purge(ctx.db) }));
