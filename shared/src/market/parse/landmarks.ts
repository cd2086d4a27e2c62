import { PageText, type PageSource } from './page-text.js';
import { isHtmlWhitespace, rawTextEndTag } from './markup-scan.js';

/**
 * Finding an element by one of its classes with plain string searches, without reading the page:
 * the results container, its rows and their parts, the count heading and the next-page link are
 * found this way, and only they are then parsed.
 */

export interface TagLocation {
  /** Where its `<` is. */
  start: number;
  /** Its name, lower case (as text: from a page read as bytes, decoded). */
  name: string;
}

/** The text from a tag's `<` up to a class name: a start tag whose class attribute is being read. */
const OPEN_CLASS_ATTRIBUTE = /^<([a-zA-Z][^ \t\n\f\r/>]*)(?:[ \t\n\f\r/][^<>]*?)?[ \t\n\f\r"'/]class[ \t\n\f\r]*=[ \t\n\f\r]*(?:"[^"]*|'[^']*|)$/i;

function isClassBoundary(code: number): boolean {
  // Quotes, "=", whitespace, "/" and ">" end a class name in an attribute; NaN is the page's edge.
  return Number.isNaN(code) || code === 34 || code === 39 || code === 61 || code === 62 || code === 47 || isHtmlWhitespace(code);
}

/**
 * `text.indexOf(needle, from)`, but only a match that ends by `to`: the search stops there, where
 * a plain `indexOf` would read on to the end of a 2 MB page.
 */
function indexIn(text: string, needle: string, from: number, to: number): number {
  if (to >= text.length) return text.indexOf(needle, from);
  if (from + needle.length > to) return -1;
  const found = text.slice(from, to).indexOf(needle);
  return found === -1 ? -1 : from + found;
}

/**
 * One page's landmarks: start tags found by class, and where its scripts, style sheets and comments
 * are (whose text may quote markup: a class found there is no landmark). Those are found once, in
 * order, only as far into the page as a question needs.
 */
export class PageLandmarks {
  /** Start and end of each script, style sheet and comment found so far, in order (a page has thousands of comments). */
  private readonly rawTextStarts: number[] = [];
  private readonly rawTextEnds: number[] = [];
  /** Of those, the scripts and style sheets. */
  private readonly elementRanges: Array<[number, number]> = [];
  /** Where the search for them has reached. */
  private rawTextScanned = 0;
  private readonly rawTextSearch = /<!--|<script|<style/gi;
  private readonly page: PageText;
  private readonly html: string;

  constructor(page: PageSource) {
    this.page = PageText.of(page);
    this.html = this.page.html;
  }

  /** The first start tag from `from` on whose class list holds `className`. */
  findTagByClass(className: string, from = 0): TagLocation | null {
    return this.findFrom(className, from)?.tag ?? null;
  }

  /** Every start tag of the page whose class list holds `className`. */
  findTagsByClass(className: string): TagLocation[] {
    const found: TagLocation[] = [];
    for (let next = this.findFrom(className, 0); next; next = this.findFrom(className, next.after)) found.push(next.tag);
    return found;
  }

  /**
   * Start tags from `from` to `to` with a class that `pattern` (global) finds and `accept`s: one pass over the range, however many classes are wanted. Matches that
   * are no class (`accept` says no) can serve other searches through `onOther`.
   */
  findTagsByClassPattern(
    pattern: RegExp,
    accept: (className: string) => boolean,
    from: number,
    to: number,
    onOther?: (match: string, at: number) => void,
    { outsideScripts = false } = {},
  ): Array<TagLocation & { className: string }> {
    const found: Array<TagLocation & { className: string }> = [];
    // Scripts and style sheets (most of some pages) need not be searched when nothing is looked for in them.
    for (const [segmentFrom, segmentTo] of outsideScripts ? this.outsideScripts(from, to) : [[from, to] as [number, number]]) {
      this.searchSegment(pattern, accept, segmentFrom, segmentTo, onOther, found);
    }
    return found;
  }

  /** The stretches from `from` to `to` outside scripts and style sheets. */
  private outsideScripts(from: number, to: number): Array<[number, number]> {
    this.rawTextRangesTo(to);
    const segments: Array<[number, number]> = [];
    let position = from;
    for (const [start, end] of this.elementRanges) {
      if (end <= position) continue;
      if (start >= to) break;
      if (start > position) segments.push([position, start]);
      position = end;
    }
    if (position < to) segments.push([position, to]);
    return segments;
  }

  private searchSegment(
    pattern: RegExp,
    accept: (className: string) => boolean,
    from: number,
    to: number,
    onOther: ((match: string, at: number) => void) | undefined,
    found: Array<TagLocation & { className: string }>,
  ): void {
    const { html } = this;
    const range = html.slice(from, to);
    pattern.lastIndex = 0;
    for (let match = pattern.exec(range); match; match = pattern.exec(range)) {
      const hit = from + match.index;
      let end = hit + match[0].length;
      while (end < to && !isClassBoundary(html.charCodeAt(end))) end += 1;
      const className = html.slice(hit, end);
      if (!accept(className)) {
        onOther?.(match[0], hit);
        continue;
      }
      const tag = this.tagAround(hit, className.length);
      if (tag) found.push({ start: tag.start, name: tag.name, className });
    }
  }

  /** The start of the start tag whose attributes hold position `inside`, if it is one (not a comment's or a script's text). */
  tagStartAround(inside: number): number | null {
    const { html } = this;
    const start = html.lastIndexOf('<', inside);
    if (start === -1 || !/[a-zA-Z]/.test(html.charAt(start + 1))) return null;
    const close = html.indexOf('>', start);
    if (close !== -1 && close < inside) return null;
    return this.isInsideRawText(start) ? null : start;
  }

  /** Whether a `<` at `position` starts markup: not in a comment, script or style, nor inside another tag. */
  isMarkup(position: number): boolean {
    const { html } = this;
    const previousOpen = html.lastIndexOf('<', position - 1);
    if (previousOpen !== -1 && html.lastIndexOf('>', position - 1) < previousOpen) return false;
    return !this.isInsideRawText(position);
  }

  private findFrom(className: string, from: number, to = this.html.length): { tag: TagLocation; after: number } | null {
    const { html } = this;
    for (let hit = indexIn(html, className, from, to); hit !== -1; hit = indexIn(html, className, hit + className.length, to)) {
      const tag = this.tagAround(hit, className.length);
      if (tag) return { tag, after: hit + className.length };
    }
    return null;
  }

  /** The start tag whose class attribute holds the class at `hit` (of `length`), if that is what it is. */
  private tagAround(hit: number, length: number): TagLocation | null {
    const { html } = this;
    if (!isClassBoundary(html.charCodeAt(hit - 1)) || !isClassBoundary(html.charCodeAt(hit + length))) return null;
    const start = html.lastIndexOf('<', hit);
    // Inside a start tag, no ">" stands between its "<" and the class (a quoted value might hold one: missed, then).
    if (start === -1) return null;
    const close = html.indexOf('>', start);
    if (close !== -1 && close < hit) return null;
    const match = OPEN_CLASS_ATTRIBUTE.exec(html.slice(start, hit));
    return match && !this.isInsideRawText(start) ? { start, name: this.page.decode(match[1]!).toLowerCase() } : null;
  }

  /** Whether `position` lies inside a script, a style sheet or a comment. */
  private isInsideRawText(position: number): boolean {
    this.rawTextRangesTo(position);
    const { rawTextStarts: starts, rawTextEnds: ends } = this;
    let low = 0;
    let high = starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (position < starts[middle]!) high = middle - 1;
      else if (position >= ends[middle]!) low = middle + 1;
      else return true;
    }
    return false;
  }

  /** Finds every script, style sheet and comment that starts at or before `position`. */
  private rawTextRangesTo(position: number): void {
    const { html } = this;
    const search = this.rawTextSearch;
    while (this.rawTextScanned <= position && this.rawTextScanned < html.length) {
      search.lastIndex = this.rawTextScanned;
      // `test`, not `exec`: no match to allocate; the match's last character tells which it is ("-", "t" or "e").
      if (!search.test(html)) {
        this.rawTextScanned = html.length;
        break;
      }
      const matchEnd = search.lastIndex;
      const last = html.charCodeAt(matchEnd - 1) | 0x20;
      let at: number;
      let end: number;
      if (last === 0x2d /* - */) {
        // A comment's "-->" may follow its opening dashes at once ("<!-->").
        at = matchEnd - 4;
        const closed = html.indexOf('-->', at + 2);
        end = closed === -1 ? html.length : closed + 3;
      } else {
        // "<scripts" or "<styled" is another element: its content is markup, as htmlparser2 reads it.
        const next = html.charCodeAt(matchEnd);
        if (!(isHtmlWhitespace(next) || next === 47 || next === 62)) {
          this.rawTextScanned = matchEnd;
          continue;
        }
        // A script or style sheet ends at its end tag.
        const name = last === 0x74 /* t */ ? 'script' : 'style';
        at = matchEnd - 1 - name.length;
        const closed = rawTextEndTag(html, name, at);
        end = closed === -1 ? html.length : closed + 2 + name.length;
        this.elementRanges.push([at, end]);
      }
      this.rawTextStarts.push(at);
      this.rawTextEnds.push(end);
      this.rawTextScanned = end;
    }
  }
}

