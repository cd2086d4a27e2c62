import type { JoinBytes } from '../../runtime/one-byte-text.js';

/** Below this a page's chunks are moved as they are: joining them saves the receiver next to nothing. */
const JOINED_BYTES_AT_LEAST = 64 * 1024;

/**
 * A page's bytes as they came off the connection: the chunks the socket read them in (a large read
 * is its own ArrayBuffer; the first shares its buffer with the headers, a chunked body's with its
 * framing, a small read with Node's pool), put together only by whoever reads them (`take`, then
 * `PageText.ofParts`), or for a parse thread (`forThread`): there the chunks are moved and put
 * together, or joined here into one buffer of memory kept for pages (the api), so that the calling
 * thread never allocates a page's copy in its own heap, which V8 counts toward its next full
 * collection (a bulk search's twenty pages of 2 MB: 40 MB a call).
 */
export class PageBytes {
  private chunks: Buffer[];
  /** Handed to their reader (`take`, or `forThread`): some chunks may be empty now, and the bytes are read there. */
  private handedOver = false;

  private constructor(
    chunks: Buffer[],
    /** The bytes in all. */
    readonly length: number,
  ) {
    this.chunks = chunks;
  }

  static of(chunks: Buffer[]): PageBytes {
    return new PageBytes(chunks, chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  }

  /** Throws once the bytes went to their reader: they are read once. */
  private stillHere(): void {
    if (this.handedOver) throw new Error('the page bytes were handed to their reader');
  }

  private handOver(): void {
    this.stillHere();
    this.handedOver = true;
  }

  /** The bytes as one Buffer: the chunks copied together (once), a single chunk as it is. */
  whole(): Buffer {
    this.stillHere();
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks, this.length)];
    return this.chunks[0]!;
  }

  /** The chunks, for a reader on this thread (`PageText.ofParts`), which may take their memory: the bytes are read once. */
  take(): readonly Buffer[] {
    this.handOver();
    return this.chunks;
  }

  /**
   * The bytes for another thread, with what to transfer. With `join` (the native helper's), chunks of
   * 64 KB or more in all are joined into one buffer, moved: the receiving thread reads it without
   * joining it (a bulk search's twenty pages arrive together, and the parse thread, which reads them
   * one after another, is what the call waits for). Otherwise a chunk that owns its memory whole is
   * moved (the caller's chunk is then empty), any other is copied alone, never the rest of a pool or
   * the headers before it. The receiver reads them (`PageText.ofParts`).
   */
  forThread(join?: JoinBytes): { parts: Uint8Array[]; moved: ArrayBuffer[] } {
    this.handOver();
    if (join && this.chunks.length > 1 && this.length >= JOINED_BYTES_AT_LEAST) {
      const joined = join(this.chunks);
      return { parts: [new Uint8Array(joined)], moved: [joined] };
    }
    const parts = this.chunks.map((chunk) =>
      chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer ? new Uint8Array(chunk.buffer) : new Uint8Array(chunk),
    );
    return { parts, moved: parts.map((part) => part.buffer as ArrayBuffer) };
  }
}
