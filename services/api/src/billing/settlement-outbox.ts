import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import { callAccounts, type AccountsClient } from '../accounts/accounts-client.js';

export interface SettlementOutboxOptions {
  key: string;
  batchSize?: number;
  /** Entries a consumer has held this long without settling are taken over (their process died). */
  claimIdleMs?: number;
}

const GROUP = 'settlers';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Charges leave the request path through a Redis stream. A successful request holds its quota
 * reservation (so the quota cannot be overspent) and adds its request id here before answering;
 * the settlers of every api process read the stream as one consumer group and settle in batches
 * through accounts, acknowledging only what accounts confirmed. Entries of a process that died are
 * claimed by another after `claimIdleMs`; settling is idempotent per request id, so delivery at
 * least once is a charge exactly once.
 */
export class SettlementOutbox {
  private readonly consumer = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private readonly batchSize: number;
  private readonly claimIdleMs: number;
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly writer: RedisClient,
    private readonly reader: RedisClient,
    private readonly accounts: AccountsClient,
    private readonly logger: Logger,
    private readonly options: SettlementOutboxOptions,
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.claimIdleMs = options.claimIdleMs ?? 30_000;
  }

  /** Records that this request is to be charged; throws if Redis cannot take it (the caller settles directly). */
  async add(requestId: string): Promise<void> {
    await this.writer.xAdd(this.options.key, '*', { r: requestId });
  }

  start(): void {
    this.loop = this.run();
  }

  private async ensureGroup(): Promise<void> {
    try {
      await this.reader.xGroupCreate(this.options.key, GROUP, '0', { MKSTREAM: true });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('BUSYGROUP')) throw error;
    }
  }

  private async settle(entries: Array<{ id: string; message: Record<string, string> }>): Promise<void> {
    if (entries.length === 0) return;
    const requestIds = entries.map((entry) => entry.message.r).filter((id): id is string => Boolean(id));
    if (requestIds.length > 0) {
      const result = await callAccounts(() => this.accounts.quota.settleBatch.mutate({ requestIds }));
      if (result.unknown.length > 0) this.logger.warn({ unknown: result.unknown.length }, 'settled request ids without a reservation');
      if (result.notCharged > 0) this.logger.warn({ notCharged: result.notCharged }, 'late settlements beyond the quota were not charged');
    }
    const ids = entries.map((entry) => entry.id);
    await this.reader.xAck(this.options.key, GROUP, ids);
    await this.reader.xDel(this.options.key, ids);
  }

  private async run(): Promise<void> {
    let groupReady = false;
    let backlog = true;
    let lastClaim = 0;
    while (!this.stopped) {
      try {
        if (!this.reader.isReady) {
          await sleep(200);
          continue;
        }
        if (!groupReady) {
          await this.ensureGroup();
          groupReady = true;
        }
        if (Date.now() - lastClaim > this.claimIdleMs / 3) {
          lastClaim = Date.now();
          const claimed = await this.reader.xAutoClaim(this.options.key, GROUP, this.consumer, this.claimIdleMs, '0-0', { COUNT: this.batchSize });
          await this.settle(claimed.messages.filter((entry): entry is NonNullable<typeof entry> => entry !== null));
        }
        // Our own unacknowledged entries first (a settlement that failed), then new ones.
        const reply = await this.reader.xReadGroup(GROUP, this.consumer, { key: this.options.key, id: backlog ? '0' : '>' }, { COUNT: this.batchSize, ...(backlog ? {} : { BLOCK: 500 }) });
        const entries = reply?.[0]?.messages ?? [];
        if (backlog && entries.length === 0) backlog = false;
        await this.settle(entries);
      } catch (error) {
        backlog = true;
        if (String(error).includes('NOGROUP')) groupReady = false;
        this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'settlement outbox: will retry');
        await sleep(1000);
      }
    }
  }

  /** Stops reading, then settles what this process still holds, so a clean shutdown leaves nothing behind. */
  async close(): Promise<void> {
    this.stopped = true;
    await this.loop;
    try {
      if (!this.reader.isReady) return;
      for (;;) {
        const reply = await this.reader.xReadGroup(GROUP, this.consumer, { key: this.options.key, id: '0' }, { COUNT: this.batchSize });
        const entries = reply?.[0]?.messages ?? [];
        if (entries.length === 0) return;
        await this.settle(entries);
      }
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'settlement outbox: left for another process to claim');
    }
  }
}
