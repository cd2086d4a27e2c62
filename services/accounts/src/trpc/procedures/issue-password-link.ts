import { z } from 'zod';
import { issuePasswordLink as issue } from '../../users/user-service.js';
import { procedure } from '../trpc.js';
import { linkHoursSchema, passwordLinkSchema } from './create-user.js';

/** An operator's `user password-link`: a new set-password link for an existing user (forgotten password, expired link). */
export const issuePasswordLink = procedure
  .input(z.object({ email: z.string().min(3).max(254), linkHours: linkHoursSchema }))
  .output(passwordLinkSchema)
  .mutation(async ({ ctx, input }) => {
    const link = await issue(ctx.db, input, ctx.ledger.now(), input.linkHours * 3_600_000);
    return { ...link, expiresAt: link.expiresAt.toISOString() };
  });
