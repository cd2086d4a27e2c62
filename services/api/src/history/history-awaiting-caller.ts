import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { HistoryRecord, HistorySink } from '@comps/shared/internal/accounts/history-record';
import type { Principal } from '@comps/shared/internal/accounts/principal';
import type { Logger } from '@comps/shared/logging/create-logger';
import { TaskTracker } from '@comps/shared/runtime/task-tracker';

/** An entry whose workspace is not known yet: everything but who made the request. */
export type CallerlessRecord = Omit<HistoryRecord, 'workspaceId' | 'apiKeyId' | 'apiKeyPrefix'>;

const MAX_ENTRIES = 10_000;
/** Each distinct key costs accounts one lookup once it answers: a flood of made-up keys during an outage stays bounded. */
const MAX_KEYS = 1000;

/**
 * The entries of requests that failed before their key could be looked up (Redis or accounts was
 * down, so authentication itself answered 503): the key was well formed, so once accounts answers
 * again its workspace is found and the entry goes to the history like any other. A key that turns
 * out unknown or revoked gets no entry (it never had a workspace). Looked up once per key, retried
 * every few seconds while accounts is unavailable, and once more at shutdown.
 */
export class HistoryAwaitingCaller {
  private readonly waiting = new Map<string, CallerlessRecord[]>();
  private size = 0;
  private resolving: Promise<void> | null = null;
  private readonly tasks: TaskTracker;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly accounts: Pick<AccountsClient, 'apiKeys'>,
    private readonly history: HistorySink,
    private readonly logger: Logger,
    retryMs: number,
  ) {
    this.tasks = new TaskTracker((error) => logger.warn({ err: String(error) }, 'history awaiting its caller: lookup failed; will retry'));
    this.timer = setInterval(() => this.resolveSoon(), retryMs);
    this.timer.unref();
  }

  add(keyHash: string, record: CallerlessRecord): void {
    const entries = this.waiting.get(keyHash);
    if (this.size >= MAX_ENTRIES || (!entries && this.waiting.size >= MAX_KEYS)) {
      this.logger.error({ keyHash: keyHash.slice(0, 8) }, 'history awaiting its caller is full; entry dropped');
      return;
    }
    if (entries) entries.push(record);
    else this.waiting.set(keyHash, [record]);
    this.size += 1;
  }

  /** How many entries wait (for tests and the shutdown log). */
  get pending(): number {
    return this.size;
  }

  private resolveSoon(): void {
    if (this.resolving || this.size === 0) return;
    this.resolving = this.resolve().finally(() => {
      this.resolving = null;
    });
    this.tasks.track(this.resolving);
  }

  /** Looks each waiting key up; a key accounts cannot answer for yet stays with its entries. */
  async resolve(): Promise<void> {
    for (const [keyHash, entries] of [...this.waiting]) {
      const principal: Principal | null = await this.accounts.apiKeys.authenticate.query({ keyHash });
      this.waiting.delete(keyHash);
      this.size -= entries.length;
      if (!principal) continue;
      for (const entry of entries) {
        this.history.add({ ...entry, workspaceId: principal.workspaceId, apiKeyId: principal.apiKeyId, apiKeyPrefix: principal.apiKeyPrefix });
      }
    }
  }

  /** Stops retrying; one last lookup gives what it can to the history before it is flushed. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.tasks.drain();
    if (this.size === 0) return;
    try {
      await this.resolve();
    } catch (error) {
      this.logger.error({ lost: this.size, err: String(error) }, 'history entries whose caller could not be looked up were not recorded');
    }
  }
}
