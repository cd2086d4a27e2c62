import { z } from 'zod';
import { effectivePlanSchema } from '../../contract/usage.js';
import { quotaSnapshotSchema } from './quota.js';

/** The caller behind an API key, as accounts reports it: the workspace, the key, the limits in force. */
export const principalSchema = z.object({
  workspaceId: z.string(),
  apiKeyId: z.string(),
  apiKeyPrefix: z.string(),
  plan: effectivePlanSchema,
  quota: quotaSnapshotSchema,
});
export type Principal = z.infer<typeof principalSchema>;
