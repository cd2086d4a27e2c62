import { PassThrough } from 'node:stream';

/** How often a comment goes out while nothing else does, so that proxies and clients keep the stream open. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * A server-sent event stream: each event has an `id:` (its sequence number, from 1), an `event:`
 * (its kind) and JSON `data:`; a `: keep-alive` comment goes out whenever nothing else was written
 * for `keepAliveMs`. Writing after end() does nothing.
 */
export class EventStream {
  readonly body = new PassThrough();
  private sequence = 0;
  private timer: NodeJS.Timeout;
  private ended = false;

  constructor(private readonly keepAliveMs = KEEP_ALIVE_MS) {
    this.timer = this.schedule();
  }

  private schedule(): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.write(': keep-alive\n\n');
    }, this.keepAliveMs);
    timer.unref();
    return timer;
  }

  private write(text: string): void {
    if (this.ended) return;
    clearTimeout(this.timer);
    this.body.write(text);
    this.timer = this.schedule();
  }

  send(event: string, data: unknown): void {
    this.sequence += 1;
    this.write(`id: ${this.sequence}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    this.body.end();
  }
}
