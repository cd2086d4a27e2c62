import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { MAX_FINGERPRINTS_PAGE } from '@comps/shared/internal/accounts/accounts-contract';
import { fingerprintHexOf, keyAnnouncementKeys } from '@comps/shared/internal/accounts/key-announcements';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import { callRedis } from '@comps/shared/redis/redis-errors';
import { FingerprintSet } from './fingerprint-set.js';

/** `valid`: an active key; `unknown`: no such key (refused without asking accounts); `unsure`: the list is not loaded yet. */
export type KeyVerdict = 'valid' | 'unknown' | 'unsure';

export interface KeyDirectoryDeps {
  accounts: AccountsClient;
  /** For the sorted set of recent keys. */
  redis: RedisClient;
  /** A connection of its own, in subscriber mode. */
  subscriber: RedisClient;
  redisKeyPrefix: string;
  logger: Logger;
  /** A full load this often, whatever the announcements said (one that failed to go out is caught up). */
  reloadMs?: number;
}

const RELOAD_MS = 5 * 60_000;
/** How often the changes since the last look are read from accounts, whatever the announcements said. */
const CATCH_UP_MS = 2000;
/** Each catch-up reads a little before the last one ended: a change committed late is not missed. */
const CATCH_UP_OVERLAP_MS = 10_000;

/**
 * Which API keys exist, known in each api process: every active key's fingerprint, loaded whole
 * from accounts at start, kept current at once by the announcements accounts publishes when a key
 * is made or revoked (key-announcements.ts), and within seconds by reading the changes since the
 * last look (an announcement that never came is caught up), and loaded whole again after the
 * subscription reconnects and every few minutes. A valid key is then told from an unknown one without asking anybody, so
 * unknown keys cost their sender (the per-address throttle) and never accounts, and a valid key is
 * never slowed by the failures of others at its address. Revocation still bites through accounts
 * (the principal cache) within 5 s, as before; the directory only removes the key sooner.
 */
export class KeyDirectory {
  private keys: FingerprintSet | null = null;
  /** Announcements that arrived while a full load ran, applied to its result. */
  private duringLoad: string[] | null = null;
  private loading: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private catchUpTimer: NodeJS.Timeout | undefined;
  private catchingUp: Promise<void> | null = null;
  /** Where the next catch-up starts (the database's time of the last read, less an overlap). */
  private since: Date | null = null;
  private readonly announcements: { channel: string; recent: string };
  private readonly reloadMs: number;

  constructor(private readonly deps: KeyDirectoryDeps) {
    this.announcements = keyAnnouncementKeys(deps.redisKeyPrefix);
    this.reloadMs = deps.reloadMs ?? RELOAD_MS;
  }

  /** Subscribes (each time the connection is ready again, the list is loaded anew) and loads the list. */
  start(): void {
    let subscribed = false;
    this.deps.subscriber.on('ready', () => {
      if (!subscribed) {
        subscribed = true;
        // The client subscribes again by itself after a reconnection.
        this.deps.subscriber.subscribe(this.announcements.channel, (message) => this.apply(message)).catch((error: unknown) => {
          subscribed = false;
          this.deps.logger.warn({ err: String(error) }, 'key announcements: subscription failed');
        });
      }
      // Announcements may have been missed while the connection was down.
      this.reloadSoon();
    });
    this.timer = setInterval(() => this.reloadSoon(), this.reloadMs);
    this.timer.unref();
    this.catchUpTimer = setInterval(() => {
      this.catchingUp ??= this.catchUp().finally(() => {
        this.catchingUp = null;
      });
    }, CATCH_UP_MS);
    this.catchUpTimer.unref();
    this.reloadSoon();
  }

  /** The keys made and revoked since the last look: changes whose announcement did not reach this process (accounts could not reach Redis) are learnt within seconds. */
  private async catchUp(): Promise<void> {
    const { keys, since } = this;
    if (!keys || !since || this.loading) return;
    try {
      const changes = await this.deps.accounts.apiKeys.changes.query({ since: since.toISOString() });
      for (const fingerprint of changes.created) keys.add(Buffer.from(fingerprint, 'hex'));
      for (const fingerprint of changes.revoked) keys.delete(Buffer.from(fingerprint, 'hex'));
      this.since = new Date(new Date(changes.asOf).getTime() - CATCH_UP_OVERLAP_MS);
    } catch (error) {
      this.deps.logger.warn({ err: String(error) }, 'key directory: catching up failed; will retry');
    }
  }

  /** Whether the key behind this SHA-256 (hex) is active, as far as this process knows. */
  async verdict(keyHash: string): Promise<KeyVerdict> {
    const keys = this.keys;
    if (!keys) return 'unsure';
    const fingerprint = Buffer.from(fingerprintHexOf(keyHash), 'hex');
    if (keys.has(fingerprint)) return 'valid';
    // Made moments ago, before its announcement reached this process: the recent keys say so.
    const madeAt = await callRedis(() => this.deps.redis.zScore(this.announcements.recent, fingerprintHexOf(keyHash)));
    if (madeAt === null) return 'unknown';
    keys.add(fingerprint);
    return 'valid';
  }

  /** Whether the first full load is done (until then every key is `unsure`). */
  get loaded(): boolean {
    return this.keys !== null;
  }

  private apply(message: string): void {
    if (this.duringLoad) this.duringLoad.push(message);
    if (this.keys) applyAnnouncement(this.keys, message);
  }

  private reloadSoon(): void {
    this.loading ??= this.reload()
      .catch((error: unknown) => this.deps.logger.warn({ err: String(error) }, 'key directory: full load failed; will retry'))
      .finally(() => {
        this.loading = null;
      });
  }

  private async reload(): Promise<void> {
    this.duringLoad = [];
    try {
      let loaded: FingerprintSet | null = null;
      let asOf: string | null = null;
      for (let afterId: string | null = null; ; ) {
        const page = await this.deps.accounts.apiKeys.fingerprints.query({ afterId, limit: MAX_FINGERPRINTS_PAGE });
        // Sized once for the count the first page reports (growing a table keeps its old copies' memory around).
        loaded ??= new FingerprintSet(page.total ?? 0);
        asOf ??= page.asOf;
        for (const fingerprint of page.fingerprints) loaded.add(Buffer.from(fingerprint, 'hex'));
        if (page.lastId === null) break;
        afterId = page.lastId;
      }
      for (const message of this.duringLoad) applyAnnouncement(loaded!, message);
      this.keys = loaded;
      if (asOf) this.since = new Date(new Date(asOf).getTime() - CATCH_UP_OVERLAP_MS);
    } finally {
      this.duringLoad = null;
    }
  }

  /** Stops the periodic load; waits for one in progress. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.catchUpTimer);
    await Promise.all([this.loading, this.catchingUp]);
  }
}

/** `+<fingerprint>` adds a key, `-<fingerprint>` removes one; anything else is ignored. */
export function applyAnnouncement(keys: FingerprintSet, message: string): void {
  const fingerprint = /^[+-]([0-9a-f]{32})$/.exec(message)?.[1];
  if (!fingerprint) return;
  if (message.startsWith('+')) keys.add(Buffer.from(fingerprint, 'hex'));
  else keys.delete(Buffer.from(fingerprint, 'hex'));
}
