import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { releaseExpiredAllowances } from '../../ledger/allowance-service.js';
import { releaseExpiredReservations as releaseExpired } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.maintenance.releaseExpiredReservations;

/** Run every QUOTA_SWEEP_INTERVAL_MS by the jobs service's task runner, once across processes: units of reservations and of allowances past their lease. */
export const releaseExpiredReservations = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(async ({ ctx }) => ({ released: (await releaseExpired(ctx.ledger)) + (await releaseExpiredAllowances(ctx.ledger)) }));
