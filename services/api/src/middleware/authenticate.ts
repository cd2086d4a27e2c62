import type { Middleware } from 'koa';
import { API_KEY_PATTERN, hashApiKey } from '@comps/shared/api-key-format';
import { AppError } from '@comps/shared/errors/app-error';
import { callAccounts, type AccountsClient } from '../accounts/accounts-client.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import type { ApiState } from '../http/api-state.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Bearer authentication. Missing, malformed, unknown and revoked keys all answer 401 `unauthorized`. */
export function authenticate(accounts: AccountsClient, cache: PrincipalCache): Middleware<ApiState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (!header) {
      throw new AppError('unauthorized', 'Missing API key: send Authorization: Bearer <key>');
    }
    const key = BEARER.exec(header)?.[1];
    if (!key || !API_KEY_PATTERN.test(key)) {
      throw new AppError('unauthorized', 'Malformed API key: expected Authorization: Bearer sk_…');
    }
    const keyHash = hashApiKey(key);
    let principal = cache.get(keyHash);
    if (principal === undefined) {
      principal = await callAccounts(() => accounts.apiKeys.authenticate.query({ keyHash }));
      cache.set(keyHash, principal);
    }
    if (!principal) throw new AppError('unauthorized', 'Unknown or revoked API key');
    ctx.state.principal = principal;
    ctx.state.keyHash = keyHash;
    return next();
  };
}
