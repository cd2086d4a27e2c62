import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { purgeHistory } from '../../history/history-service.js';
import { purgeExpiredAllowances } from '../../ledger/allowance-service.js';
import { purgeSettledReservations } from '../../ledger/ledger-service.js';
import { purgeExpiredSessions } from '../../sessions/session-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.maintenance.purge;

/** Run every HISTORY_PURGE_INTERVAL_MS by the jobs service's task runner, once across processes. */
export const purge = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(async ({ ctx }) => {
    const now = ctx.ledger.now();
    const deletedHistory = await purgeHistory(ctx.db, now);
    const deletedSessions = await purgeExpiredSessions(ctx.db, now);
    const deletedReservations = await purgeSettledReservations(ctx.ledger);
    const deletedAllowances = await purgeExpiredAllowances(ctx.ledger);
    ctx.logger.info({ deletedHistory, deletedSessions, deletedReservations, deletedAllowances }, 'purged what is past retention');
    return { deletedHistory, deletedSessions, deletedReservations };
  });
