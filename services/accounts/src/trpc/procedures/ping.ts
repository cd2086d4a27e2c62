import { z } from 'zod';
import { procedure } from '../trpc.js';
import { pingDatabase } from '@comps/shared/db/ping';

/** Readiness, as callers see it: the service answers through its client and its database answers it. */
export const ping = procedure.output(z.object({ ok: z.literal(true) })).query(async ({ ctx }) => {
  await pingDatabase(ctx.db);
  return { ok: true as const };
});
