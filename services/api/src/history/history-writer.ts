import type { Logger } from '@comps/shared/logging/create-logger';
import { TaskTracker } from '@comps/shared/runtime/task-tracker';
import type { AccountsClient } from '../accounts/accounts-client.js';

export type HistoryRecord = Parameters<AccountsClient['history']['record']['mutate']>[0]['entries'][number];

const BATCH_SIZE = 200;
const MAX_BUFFERED = 20_000;

/**
 * Collects history entries off the request path and sends them to accounts in batches. A failed
 * batch stays buffered for the next flush (accounts ignores ids it already has), and close()
 * flushes what is left, so entries survive an accounts hiccup and a clean shutdown.
 */
export class HistoryWriter {
  private buffer: HistoryRecord[] = [];
  private flushing: Promise<void> | null = null;
  private readonly tasks: TaskTracker;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly accounts: AccountsClient,
    private readonly logger: Logger,
    flushIntervalMs: number,
  ) {
    this.tasks = new TaskTracker((error) => logger.warn({ err: String(error) }, 'history flush failed'));
    this.timer = setInterval(() => this.flushSoon(), flushIntervalMs);
    this.timer.unref();
  }

  add(record: HistoryRecord): void {
    if (this.buffer.length >= MAX_BUFFERED) {
      this.buffer.shift();
      this.logger.error('history buffer full; dropped the oldest entry');
    }
    this.buffer.push(record);
    if (this.buffer.length >= BATCH_SIZE) this.flushSoon();
  }

  private flushSoon(): void {
    if (this.flushing || this.buffer.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
    });
    this.tasks.track(this.flushing);
  }

  private async flush(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.slice(0, BATCH_SIZE);
      await this.accounts.history.record.mutate({ entries: batch });
      this.buffer.splice(0, batch.length);
    }
  }

  /** Stops the timer and sends everything buffered, trying a few times before giving up. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.tasks.drain();
    for (let attempt = 1; this.buffer.length > 0 && attempt <= 3; attempt += 1) {
      try {
        await this.flush();
      } catch (error) {
        this.logger.warn({ attempt, err: String(error) }, 'history flush at shutdown failed');
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
    if (this.buffer.length > 0) this.logger.error({ lost: this.buffer.length }, 'history entries not delivered');
  }
}
