import { z } from 'zod';
import { usageSchema } from '@comps/shared/contract/usage';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { getUsage as usage } from '../../workspaces/workspace-service.js';
import { procedure } from '../trpc.js';

/** More than this many unsettled charges means settling has stalled for long; a usage read sends the first ones. */
export const MAX_ANSWERED_REQUEST_IDS = 100_000;

export const getUsageInput = z.object({
  workspaceId: z.string().min(1).max(32),
  /** Successes already answered whose charge may not be settled yet (the caller's settlement outbox knows them). */
  answeredRequestIds: z.array(z.string().regex(REQUEST_ID_PATTERN)).max(MAX_ANSWERED_REQUEST_IDS).default([]),
});

export const getUsage = procedure
  .input(getUsageInput)
  .output(usageSchema)
  .query(({ ctx, input }) => usage(ctx.db, input.workspaceId, ctx.ledger.now(), input.answeredRequestIds));
