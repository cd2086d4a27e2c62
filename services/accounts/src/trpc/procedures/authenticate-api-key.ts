import { z } from 'zod';
import { principalSchema } from '@comps/shared/accounts/principal';
import { authenticateKeyHash } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

export const authenticateApiKeyInput = z.object({ keyHash: z.string().regex(/^[0-9a-f]{64}$/) });

/** Callers send the SHA-256 of the key, so the key itself never crosses a service boundary. Null: unknown or revoked. */
export const authenticateApiKey = procedure
  .input(authenticateApiKeyInput)
  .output(principalSchema.nullable())
  .query(({ ctx, input }) => authenticateKeyHash(ctx.db, input.keyHash, ctx.ledger.now()));
