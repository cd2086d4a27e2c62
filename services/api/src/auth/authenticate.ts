import { API_KEY_PATTERN, hashApiKey } from '@comps/shared/api-key-format';
import { type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { type Principal } from '@comps/shared/internal/accounts/principal';
import { AppError } from '@comps/shared/errors/app-error';
import type { FailedAuthThrottle } from './failed-auth-throttle.js';
import type { KeyDirectory } from './key-directory.js';
import type { PrincipalCache } from './principal-cache.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export interface Caller {
  principal: Principal;
  keyHash: string;
}

/**
 * Bearer authentication. Missing, malformed, unknown and revoked keys all throw 401
 * `unauthorized`. Keys this process knows to be unknown (KeyDirectory) are refused without asking
 * accounts, and each counts against its sender's address: an address that presented bad keys too
 * often is refused with 429 for its bad keys, while a valid key from it is never slowed. A key found
 * valid is cached for a short time (revocation bites within it).
 */
export class Authenticator {
  constructor(
    private readonly accounts: AccountsClient,
    private readonly directory: Pick<KeyDirectory, 'verdict'>,
    private readonly cache: PrincipalCache,
    private readonly throttle: FailedAuthThrottle,
  ) {}

  async authenticate(authorization: string | undefined, address: string): Promise<Caller> {
    if (!authorization) {
      throw new AppError('unauthorized', 'Missing API key: send Authorization: Bearer <key>');
    }
    const keyHash = keyHashOf(authorization);
    if (!keyHash) return this.refuse(address, new AppError('unauthorized', 'Malformed API key: expected Authorization: Bearer sk_…'));
    const cached = this.cache.get(keyHash);
    if (cached) return { principal: cached, keyHash };
    const verdict = await this.directory.verdict(keyHash);
    if (verdict === 'unknown') return this.refuse(address, UNKNOWN_KEY());
    if (verdict === 'unsure') {
      // Before the directory is loaded, accounts is asked, behind the throttle, unless it said no moments ago.
      if (cached === null) return this.refuse(address, UNKNOWN_KEY());
      await this.throttle.check(address);
    }
    const principal = await this.accounts.apiKeys.authenticate.query({ keyHash });
    this.cache.set(keyHash, principal);
    if (!principal) return this.refuse(address, UNKNOWN_KEY());
    return { principal, keyHash };
  }

  /**
   * A bad key: 429 when its address has failed too often already, else 401; counted either way.
   * Without Redis the address cannot be counted, but the key is no less bad: still 401.
   */
  private async refuse(address: string, error: AppError): Promise<never> {
    try {
      await this.throttle.check(address);
      await this.throttle.recordFailure(address);
    } catch (failure) {
      if (failure instanceof AppError && failure.code === 'service_unavailable') throw error;
      throw failure;
    }
    throw error;
  }

  /** Keeps the cached figures current after a charge, so headers of the next request are fresh. */
  noteQuota(caller: Caller, quota: Principal['quota']): void {
    this.cache.updateQuota(caller.keyHash, quota);
  }
}

/** The SHA-256 of a well-formed bearer key, else undefined. */
export function keyHashOf(authorization: string | undefined): string | undefined {
  const key = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  return key && API_KEY_PATTERN.test(key) ? hashApiKey(key) : undefined;
}

const UNKNOWN_KEY = () => new AppError('unauthorized', 'Unknown or revoked API key');
