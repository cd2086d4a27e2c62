import { API_KEY_PATTERN, hashApiKey } from '@comps/shared/api-key-format';
import { type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { type Principal } from '@comps/shared/internal/accounts/principal';
import { AppError } from '@comps/shared/errors/app-error';
import type { FailedAuthThrottle } from './failed-auth-throttle.js';
import type { PrincipalCache } from './principal-cache.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export interface Caller {
  principal: Principal;
  keyHash: string;
}

/**
 * Bearer authentication. Missing, malformed, unknown and revoked keys all throw 401
 * `unauthorized`; an address that presented bad keys too often is refused with 429 first. A key
 * found valid is cached for a short time (revocation bites within it).
 */
export class Authenticator {
  constructor(
    private readonly accounts: AccountsClient,
    private readonly cache: PrincipalCache,
    private readonly throttle: FailedAuthThrottle,
  ) {}

  async authenticate(authorization: string | undefined, address: string): Promise<Caller> {
    if (!authorization) {
      throw new AppError('unauthorized', 'Missing API key: send Authorization: Bearer <key>');
    }
    const key = BEARER.exec(authorization)?.[1];
    const keyHash = key && API_KEY_PATTERN.test(key) ? hashApiKey(key) : undefined;
    let principal = keyHash ? this.cache.get(keyHash) : null;
    if (!principal) {
      await this.throttle.check(address);
      if (keyHash && principal === undefined) {
        principal = await this.accounts.apiKeys.authenticate.query({ keyHash });
        this.cache.set(keyHash, principal);
      }
    }
    if (!principal || !keyHash) {
      await this.throttle.recordFailure(address);
      throw keyHash
        ? new AppError('unauthorized', 'Unknown or revoked API key')
        : new AppError('unauthorized', 'Malformed API key: expected Authorization: Bearer sk_…');
    }
    return { principal, keyHash };
  }

  /** Keeps the cached figures current after a charge, so headers of the next request are fresh. */
  noteQuota(caller: Caller, quota: Principal['quota']): void {
    this.cache.updateQuota(caller.keyHash, quota);
  }
}
