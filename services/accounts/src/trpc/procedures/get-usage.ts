import { z } from 'zod';
import { getUsage as usage } from '../../workspaces/workspace-service.js';
import { procedure } from '../trpc.js';

export const getUsageInput = z.object({ workspaceId: z.string().min(1).max(32) });

export const getUsage = procedure.input(getUsageInput).query(({ ctx, input }) => usage(ctx.db, input.workspaceId));
