import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { authenticateKeyHash } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

const { authenticate } = accountsContract.apiKeys;

/** Callers send the SHA-256 of the key, so the key itself never crosses a service boundary. Null: unknown or revoked. */
export const authenticateApiKey = procedure
  .input(authenticate.input)
  .output(authenticate.output)
  .query(({ ctx, input }) => authenticateKeyHash(ctx.db, input.keyHash, ctx.ledger.now()));
