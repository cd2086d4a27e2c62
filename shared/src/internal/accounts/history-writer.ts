import { AppError } from '../../errors/app-error.js';
import type { Logger } from '../../logging/create-logger.js';
import { TaskTracker } from '../../runtime/task-tracker.js';
import type { AccountsClient } from './accounts-client.js';
import type { HistoryRecord, HistorySink } from './history-record.js';

const BATCH_SIZE = 200;
const MAX_BUFFERED = 20_000;

/**
 * For the services that call accounts: collects history entries off the request path and sends them
 * to accounts in batches (the entries of charged successes go with their charges instead, through the
 * settlement outbox). A batch that could not be delivered (accounts unreachable) stays buffered for
 * the next flush (sending an entry twice writes it once), and close() flushes what is left, so entries survive an accounts
 * hiccup and a clean shutdown. A batch accounts refuses (invalid, or failing there) would be refused
 * again: it is logged and dropped, not retried forever.
 */
export class HistoryWriter implements HistorySink {
  private buffer: HistoryRecord[] = [];
  private flushing: Promise<void> | null = null;
  private readonly tasks: TaskTracker;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly accounts: AccountsClient,
    private readonly logger: Logger,
    flushIntervalMs: number,
  ) {
    this.tasks = new TaskTracker((error) => logger.warn({ err: String(error) }, 'history flush failed; will retry'));
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
      // The batch leaves the buffer while it is sent, so entries added meanwhile (or dropped when it is full) are not confused with it.
      const batch = this.buffer.splice(0, BATCH_SIZE);
      try {
        await this.accounts.history.record.mutate({ entries: batch });
      } catch (error) {
        if (error instanceof AppError && error.code === 'service_unavailable') {
          // Accounts will be back: the batch goes first again, as much of it as the buffer has room for.
          this.buffer.unshift(...batch.slice(0, Math.max(0, MAX_BUFFERED - this.buffer.length)));
          throw error;
        }
        // Refused (invalid, or failing on accounts' side): sent again it would be refused again.
        this.logger.error({ dropped: batch.length, err: error instanceof Error ? error.message : String(error) }, 'history batch refused; dropped');
      }
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
