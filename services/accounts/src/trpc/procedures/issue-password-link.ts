import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { issuePasswordLink as issue } from '../../users/user-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.users.issuePasswordLink;

/** An operator's `user password-link`: a new set-password link for an existing user (forgotten password, expired link). */
export const issuePasswordLink = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(async ({ ctx, input }) => {
    const link = await issue(ctx.db, input, ctx.ledger.now(), input.linkHours * 3_600_000);
    return { ...link, expiresAt: link.expiresAt.toISOString() };
  });
