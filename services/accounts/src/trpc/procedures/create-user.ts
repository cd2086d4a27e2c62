import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { createUserWithLink } from '../../users/user-service.js';
import { procedure } from '../trpc.js';

const { create } = accountsContract.users;

/** An operator's `user create`: a user of an existing workspace, who sets a password through the link. */
export const createUser = procedure
  .input(create.input)
  .output(create.output)
  .mutation(async ({ ctx, input }) => {
    const link = await createUserWithLink(ctx.db, input, ctx.ledger.now(), input.linkHours * 3_600_000);
    return { ...link, expiresAt: link.expiresAt.toISOString() };
  });
