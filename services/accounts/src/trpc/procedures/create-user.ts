import { z } from 'zod';
import { createUserWithLink } from '../../users/user-service.js';
import { procedure } from '../trpc.js';

export const passwordLinkSchema = z.object({
  userId: z.string(),
  email: z.string(),
  workspaceId: z.string(),
  /** For the set-password link only; stored as a hash, in this answer once. */
  token: z.string(),
  expiresAt: z.iso.datetime(),
});

export const linkHoursSchema = z.number().int().min(1).max(720).default(72);

/** An operator's `user create`: a user of an existing workspace, who sets a password through the link. */
export const createUser = procedure
  .input(z.object({ email: z.string().min(3).max(254), workspaceId: z.string().min(1).max(32), linkHours: linkHoursSchema }))
  .output(passwordLinkSchema)
  .mutation(async ({ ctx, input }) => {
    const link = await createUserWithLink(ctx.db, input, ctx.ledger.now(), input.linkHours * 3_600_000);
    return { ...link, expiresAt: link.expiresAt.toISOString() };
  });
