import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { HistoryRecord } from '../internal/accounts/history-record.js';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/create-logger.js';
import type { RedisClient } from '../redis/create-redis.js';
import { callRedis } from '../redis/redis-errors.js';
import { abortableSleep } from '../runtime/abortable-sleep.js';
import type { ChargeKeys } from './admission.js';
import type { QuotaLedger } from './quota-ledger.js';

export interface SettlementOutboxOptions {
  /** The stream; every api and jobs process of a deployment uses the same one. */
  key: string;
  batchSize?: number;
  /** Entries a consumer has held this long without settling are taken over (their process died). */
  claimIdleMs?: number;
  /** At most one batch this often, unless the last one was full: a longer interval makes larger batches (fewer transactions). */
  batchIntervalMs?: number;
  /** How long a read for new charges waits on Redis when there are none (500 ms); a clean stop ends the wait (`close`). */
  blockMs?: number;
}

const GROUP = 'settlers';
/** An idle set of unsettled charges is dropped after a day; settling empties it within the batch interval (a second) or so. */
const PENDING_TTL_MS = 86_400_000;

type Entry = { id: string; message: Record<string, string> };

/**
 * Charges leave the request path through a Redis stream. A successful call keeps its quota
 * reservation or allowance unit (so the quota cannot be overspent) and is added here with its history entry and the
 * permits' release, in one round trip before the answer (Admission.complete). The settlers of every
 * process read the stream as one consumer group and settle in batches through the ledger, which
 * records the entries in the same transaction (a charge is never without its entry, even when the
 * process that made it died before its history writer flushed), acknowledging only what it confirmed. Entries of a process that died are claimed by another after `claimIdleMs`;
 * settling is idempotent per request id, so delivery at least once is a charge exactly once.
 *
 * Each workspace also has a set of its answered, unsettled charges, so that a usage read counts
 * them at once (read your own writes); settling removes them.
 */
export class SettlementOutbox {
  private readonly consumer = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private readonly batchSize: number;
  private readonly claimIdleMs: number;
  private readonly blockMs: number;
  private readonly stopping = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  /**
   * The reader's connection id, while the loop waits on it in a blocking read (up to `blockMs`): `close` has
   * Redis end that read at once (CLIENT UNBLOCK) instead of waiting it out.
   */
  private blockedReader: number | undefined;
  /**
   * The reader's connection id, learnt once per connection (a reconnection makes another); null where Redis
   * refuses CLIENT ID (some managed services disable CLIENT): reads then wait out their block at a stop, as before.
   */
  private readerId: number | null | undefined;
  private readonly forgetReaderId = () => (this.readerId = undefined);

  constructor(
    private readonly writer: RedisClient,
    private readonly reader: RedisClient,
    private readonly ledger: QuotaLedger,
    private readonly logger: Logger,
    private readonly options: SettlementOutboxOptions,
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.claimIdleMs = options.claimIdleMs ?? 30_000;
    this.blockMs = options.blockMs ?? 500;
  }

  /** The keys a successful call writes its charge to (see Admission.complete). */
  get keys(): ChargeKeys {
    return { stream: this.options.key, pendingSetOf: (workspaceId) => this.pendingSetOf(workspaceId), pendingTtlMs: PENDING_TTL_MS };
  }

  private pendingSetOf(workspaceId: string): string {
    return `${this.options.key}:pending:${workspaceId}`;
  }

  /** Request ids of the workspace whose success was answered but may not be settled yet. */
  async pendingOf(workspaceId: string): Promise<string[]> {
    return callRedis(() => this.writer.sMembers(this.pendingSetOf(workspaceId)));
  }

  start(): void {
    this.reader.on('ready', this.forgetReaderId);
    this.loop = this.run();
  }

  private async ensureGroup(): Promise<void> {
    try {
      await this.reader.xGroupCreate(this.options.key, GROUP, '0', { MKSTREAM: true });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('BUSYGROUP')) throw error;
    }
  }

  private async settle(entries: Entry[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await this.settleTogether(entries, true);
    } catch (error) {
      if (!isRefusal(error) || entries.length === 1) return this.settleRefused(entries, error);
      // Accounts refused the batch for what one entry carries: that one must not hold back the others
      // (they would be read again and again, and their reservations expire uncharged). Each on its own.
      for (const entry of entries) {
        try {
          await this.settleTogether([entry], true);
          await this.acknowledge([entry]);
        } catch (alone) {
          await this.settleRefused([entry], alone);
        }
      }
      return;
    }
    await this.acknowledge(entries);
  }

  /**
   * One entry accounts refused (anything else is thrown, to be tried again): its charge is tried once
   * more without its history record (the charge matters more than the entry), then it is dropped, loudly.
   */
  private async settleRefused(entries: Entry[], error: unknown): Promise<void> {
    if (!isRefusal(error) || entries.length !== 1) throw error;
    const [entry] = entries as [Entry];
    try {
      if (entry.message.h) await this.settleTogether([entry], false);
      else throw error;
      this.logger.error({ requestId: entry.message.r, err: String(error) }, 'settlement outbox: history entry refused by accounts; the charge was settled without it');
    } catch (withoutHistory) {
      if (!isRefusal(withoutHistory)) throw withoutHistory;
      this.logger.error({ requestId: entry.message.r, err: String(withoutHistory) }, 'settlement outbox: charge refused by accounts; dropped');
    }
    await this.acknowledge([entry]);
  }

  private async settleTogether(entries: Entry[], withHistory: boolean): Promise<void> {
    // An entry naming an allowance (`a`) was answered with one of its units; the others reserved their own.
    const requestIds = entries.filter((entry) => !entry.message.a).map((entry) => entry.message.r).filter((id): id is string => Boolean(id));
    const allowanceCharges = entries.flatMap((entry) => (entry.message.r && entry.message.a ? [{ requestId: entry.message.r, allowanceId: entry.message.a }] : []));
    if (requestIds.length === 0 && allowanceCharges.length === 0) return;
    const result = await this.ledger.settleBatch(requestIds, withHistory ? entries.flatMap((entry) => this.historyOf(entry)) : [], allowanceCharges);
    if (result.unknown.length > 0) this.logger.warn({ unknown: result.unknown.length }, 'settled request ids without a reservation');
    if (result.notCharged > 0) this.logger.warn({ notCharged: result.notCharged }, 'late settlements beyond the quota were not charged');
  }

  private async acknowledge(entries: Entry[]): Promise<void> {
    const ids = entries.map((entry) => entry.id);
    const settled = this.reader.multi().xAck(this.options.key, GROUP, ids).xDel(this.options.key, ids);
    for (const entry of entries) {
      if (entry.message.r && entry.message.w) settled.sRem(this.pendingSetOf(entry.message.w), entry.message.r);
    }
    await settled.exec();
  }

  /** The entry's history record; an entry written before records travelled with charges has none. */
  private historyOf(entry: Entry): HistoryRecord[] {
    if (!entry.message.h) return [];
    try {
      return [JSON.parse(entry.message.h) as HistoryRecord];
    } catch {
      this.logger.warn({ requestId: entry.message.r }, 'settlement outbox: unreadable history entry left out');
      return [];
    }
  }

  private async run(): Promise<void> {
    let groupReady = false;
    let backlog = true;
    let lastClaim = 0;
    while (!this.stopping.signal.aborted) {
      try {
        if (!this.reader.isReady) {
          await abortableSleep(200, this.stopping.signal);
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
        if (!backlog) this.readerId ??= await this.reader.clientId().catch(() => null);
        if (this.stopping.signal.aborted) break;
        this.blockedReader = backlog ? undefined : (this.readerId ?? undefined);
        const reply = await this.reader
          .xReadGroup(GROUP, this.consumer, { key: this.options.key, id: backlog ? '0' : '>' }, { COUNT: this.batchSize, ...(backlog ? {} : { BLOCK: this.blockMs }) })
          .finally(() => (this.blockedReader = undefined));
        const entries = reply?.[0]?.messages ?? [];
        if (backlog && entries.length === 0) backlog = false;
        await this.settle(entries);
        // A full batch means more are waiting: the next is read at once (the interval caps transactions, not throughput).
        if (entries.length > 0 && entries.length < this.batchSize && this.options.batchIntervalMs) await abortableSleep(this.options.batchIntervalMs, this.stopping.signal);
      } catch (error) {
        backlog = true;
        if (String(error).includes('NOGROUP')) groupReady = false;
        this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'settlement outbox: will retry');
        await abortableSleep(1000, this.stopping.signal);
      }
    }
  }

  /** Stops reading, then settles what this process still holds, so a clean shutdown leaves nothing behind. */
  async close(): Promise<void> {
    this.stopping.abort();
    this.reader.off('ready', this.forgetReaderId);
    // A blocking read in progress ends now, as if it had timed out (a read that reaches Redis after this still waits out its `blockMs`).
    const blocked = this.blockedReader;
    if (blocked !== undefined) await this.writer.clientUnblock(blocked).catch(() => undefined);
    await this.loop;
    try {
      if (!this.reader.isReady) return;
      // A process that stops moments after it started may not have made the group yet: its charges are settled too.
      await this.ensureGroup();
      // What this process holds, then whatever nobody has read yet: a stack that stops whole leaves no charge behind.
      for (const id of ['0', '>']) {
        for (;;) {
          const reply = await this.reader.xReadGroup(GROUP, this.consumer, { key: this.options.key, id }, { COUNT: this.batchSize });
          const entries = reply?.[0]?.messages ?? [];
          if (entries.length === 0) break;
          await this.settle(entries);
        }
      }
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'settlement outbox: left for another process to claim');
    }
  }
}

/** Accounts refused what it was sent (its input, or a workspace it does not know): sending it again changes nothing. */
export function isRefusal(error: unknown): boolean {
  return error instanceof AppError && (error.code === 'invalid_request' || error.code === 'not_found');
}
