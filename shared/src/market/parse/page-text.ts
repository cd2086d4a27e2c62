import { isAscii } from 'node:buffer';

/** A page as the readers take it: its bytes as they came (UTF-8), its decoded text, or either already read. */
export type PageSource = Uint8Array | string | PageText;

/**
 * Bytes as a string of one character each, as `toString('latin1')` makes it. The services pass the
 * native helper's, which copies nothing (the string holds the bytes, which never change once read).
 */
export type OneByteText = (bytes: Buffer) => string;

const copyAsLatin1: OneByteText = (bytes) => bytes.toString('latin1');

const NON_ASCII = /[^\x00-\x7f]/;
/** The stretch of bytes whose being all ASCII is known at once (a power of two). */
const CHUNK_BITS = 12;
const UNKNOWN = 0;
const ALL_ASCII = 1;
const NOT_ALL_ASCII = 2;

/**
 * The page the readers scan. From its bytes, `html` holds one character per byte (the bytes read
 * as latin1): a one-byte string made at the cost of a copy at most (none with the native helper's
 * `OneByteText`), where decoding the page as UTF-8 costs several milliseconds for a 1–2 MB page
 * and, for a page with a few hundred non-ASCII bytes, makes a two-byte string that every later
 * search and the GC pay for. Every landmark of HTML is ASCII
 * and UTF-8 never uses an ASCII byte inside a multi-byte character, so searches, regular
 * expressions and positions read the bytes as they would read the text; only what the readers
 * return is decoded, span by span (`text`), before references in it are decoded (a reference
 * stands for a code point, never for bytes).
 *
 * A span that starts and ends at ASCII characters decodes as it does inside the whole page,
 * invalid sequences included (each becomes U+FFFD as the whole page's decoding makes it: a
 * sequence is cut short by any ASCII byte either way). From a string (tests, the command line),
 * `html` is that string and nothing is decoded.
 */
export class PageText {
  /**
   * Of each chunk of the bytes, whether it is all ASCII, found when first asked: most text and
   * values taken lie in chunks without a non-ASCII byte (a page has a few hundred), and need no
   * search of their own.
   */
  private readonly chunks: Uint8Array | null;

  private constructor(
    /** The page: its text, or its bytes one character each. */
    readonly html: string,
    /** The bytes `html` holds, when read from bytes. */
    private readonly bytes: Buffer | null,
  ) {
    this.chunks = bytes === null ? null : new Uint8Array((bytes.length >> CHUNK_BITS) + 1);
  }

  /** `oneByteText` reads bytes into `html` (by default a copy). */
  static of(source: PageSource, oneByteText: OneByteText = copyAsLatin1): PageText {
    if (source instanceof PageText) return source;
    if (typeof source === 'string') return new PageText(source, null);
    const bytes = Buffer.isBuffer(source) ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength);
    return new PageText(oneByteText(bytes), bytes);
  }

  /** `html[start, end)` as text; `start` and `end` at ASCII characters (or the page's ends). */
  text(start: number, end: number): string {
    const raw = this.html.slice(start, end);
    if (this.bytes === null || this.isAsciiBetween(start, end)) return raw;
    return NON_ASCII.test(raw) ? this.bytes.toString('utf8', start, end) : raw;
  }

  /** Whether the bytes from `start` to `end` are surely all ASCII (false: they may not be). */
  private isAsciiBetween(start: number, end: number): boolean {
    const bytes = this.bytes!;
    const chunks = this.chunks!;
    const last = (end - 1) >> CHUNK_BITS;
    for (let chunk = start >> CHUNK_BITS; chunk <= last; chunk += 1) {
      if (chunks[chunk] === UNKNOWN) chunks[chunk] = isAscii(bytes.subarray(chunk << CHUNK_BITS, (chunk + 1) << CHUNK_BITS)) ? ALL_ASCII : NOT_ALL_ASCII;
      if (chunks[chunk] === NOT_ALL_ASCII) return false;
    }
    return true;
  }

  /** Characters taken from `html` (a slice that starts and ends at ASCII characters) as text. */
  decode(raw: string): string {
    return this.bytes !== null && NON_ASCII.test(raw) ? Buffer.from(raw, 'latin1').toString('utf8') : raw;
  }

  /** Text as `html` holds it: what to search for in `html`. */
  encode(text: string): string {
    return this.bytes !== null && NON_ASCII.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
  }
}
