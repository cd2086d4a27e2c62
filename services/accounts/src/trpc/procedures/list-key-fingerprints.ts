import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { keyFingerprints } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.apiKeys.fingerprints;

/** A page of every active key's fingerprint, for an api's full load of the keys it accepts. */
export const listKeyFingerprints = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => keyFingerprints(ctx.db, input.afterId, input.limit));
