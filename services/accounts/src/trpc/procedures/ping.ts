import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { pingDatabase } from '@comps/shared/db/ping';
import { procedure } from '../trpc.js';

const contract = accountsContract.health.ping;

/** Readiness, as callers see it: the service answers through its client and its database answers it. */
export const ping = procedure
  .input(contract.input)
  .output(contract.output)
  .query(async ({ ctx }) => {
    await pingDatabase(ctx.db);
    return { ok: true as const };
  });
