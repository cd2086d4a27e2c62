import type { Writable } from 'node:stream';

/** How often a comment goes out while nothing else does, so that proxies and clients keep the stream open. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * A server-sent event stream written straight to the response: each event has an `id:` (its
 * sequence number, from 1), an `event:` (its kind) and JSON `data:`; a `: keep-alive` comment goes
 * out whenever nothing else was written for `keepAliveMs`. `send` says whether the event was handed
 * to the socket whole, which is what a charge for it waits on. The response itself is ended by its
 * writer; `stop()` only ends the keep-alives.
 */
export class EventStream {
  private sequence = 0;
  private timer: NodeJS.Timeout;
  private stopped = false;
  /** Writes waiting for their callback: all are answered "not received" when the connection closes first. */
  private readonly waiting = new Set<(received: boolean) => void>();

  constructor(
    private readonly out: Writable,
    private readonly keepAliveMs = KEEP_ALIVE_MS,
  ) {
    this.timer = this.schedule();
    out.once('close', () => {
      for (const answer of this.waiting) answer(false);
      this.waiting.clear();
      this.stop();
    });
  }

  private schedule(): NodeJS.Timeout {
    const timer = setTimeout(() => void this.write(': keep-alive\n\n'), this.keepAliveMs);
    timer.unref();
    return timer;
  }

  private write(text: string): Promise<boolean> {
    if (this.stopped || this.out.destroyed || this.out.writableEnded) return Promise.resolve(false);
    clearTimeout(this.timer);
    this.timer = this.schedule();
    return new Promise((resolve) => {
      const answer = (received: boolean) => {
        this.waiting.delete(answer);
        resolve(received);
      };
      this.waiting.add(answer);
      this.out.write(text, (error) => answer(!error));
    });
  }

  /** Sends one event; resolves true once it was handed to the socket, false when the connection is gone. */
  send(event: string, data: unknown): Promise<boolean> {
    this.sequence += 1;
    return this.write(`id: ${this.sequence}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** No more keep-alives (the stream's last event was sent). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
