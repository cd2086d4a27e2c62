import { copyAsLatin1, type OneByteText } from '../../runtime/one-byte-text.js';

/** A page as the readers take it: its bytes as they came (UTF-8), its decoded text, or either already read. */
export type PageSource = Uint8Array | string | PageText;


const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The page the readers scan. From its bytes, `html` holds one character per byte (the bytes read
 * as latin1): a one-byte string made at the cost of a copy at most (none with the native helper's
 * `OneByteText` for bytes in one part; parts joined into memory kept for pages), where decoding the page as UTF-8 costs several milliseconds for a 1–2 MB page
 * and, for a page with a few hundred non-ASCII bytes, makes a two-byte string that every later
 * search and the GC pay for. Every landmark of HTML is ASCII
 * and UTF-8 never uses an ASCII byte inside a multi-byte character, so searches, regular
 * expressions and positions read the bytes as they would read the text; only what the readers
 * return is decoded, span by span (`text`), before references in it are decoded (a reference
 * stands for a code point, never for bytes).
 *
 * A span that starts and ends at ASCII characters decodes as it does inside the whole page,
 * invalid sequences included (each becomes U+FFFD as the whole page's decoding makes it: a
 * sequence is cut short by any ASCII byte either way). Its bytes are its characters' codes, so it
 * is decoded from them (`Buffer.from(span, 'latin1')`): the page's buffer is not kept, since the
 * native helper's text takes it. From a string (tests, the command line), `html` is that string
 * and nothing is decoded.
 */
export class PageText {
  private constructor(
    /** The page: its text, or its bytes one character each. */
    readonly html: string,
    /** Whether `html` holds bytes (UTF-8, one character each) rather than text. */
    private readonly holdsBytes: boolean,
  ) {}

  /** `oneByteText` reads bytes into `html` (by default a copy); the bytes are not read again. */
  static of(source: PageSource, oneByteText: OneByteText = copyAsLatin1): PageText {
    if (source instanceof PageText) return source;
    if (typeof source === 'string') return new PageText(source, false);
    return PageText.ofParts([source], oneByteText);
  }

  /** Bytes in the parts they came in (a page's chunks), read into `html` by `oneByteText` (by default a copy); they are not read again. */
  static ofParts(parts: readonly Uint8Array[], oneByteText: OneByteText = copyAsLatin1): PageText {
    return new PageText(oneByteText(parts), true);
  }

  /** `html[start, end)` as text; `start` and `end` at ASCII characters (or the page's ends). */
  text(start: number, end: number): string {
    return this.decode(this.html.slice(start, end));
  }

  /** Characters taken from `html` (a slice that starts and ends at ASCII characters) as text. */
  decode(raw: string): string {
    return this.holdsBytes && NON_ASCII.test(raw) ? Buffer.from(raw, 'latin1').toString('utf8') : raw;
  }

  /** Text as `html` holds it: what to search for in `html`. */
  encode(text: string): string {
    return this.holdsBytes && NON_ASCII.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
  }
}
