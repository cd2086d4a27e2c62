import { Element } from 'domhandler';
import type { PageLandmarks, TagLocation } from './landmarks.js';
import type { PageText } from './page-text.js';
import { adoptChildren, parseElementAt, parseElementsAt, readStartTagAt, type KeptAttributes } from './skimmed-tree.js';
import { isHtmlWhitespace } from './markup-scan.js';
import { ITEM_LINK } from './normalize-row.js';

/**
 * The results of a page read row by row, each row by the parts the row readers look at
 * (`extractCardRow`, `extractItemRow`): the rows, answers and placeholders are found with string
 * searches, their ends by counting their own start and end tags, and only the parts are parsed (a
 * third of a row; the rest, media wrappers, ratings, footers and icons, is never read). Each entry
 * is handed over as soon as it is built, to be read and dropped: a page's row trees held until the
 * last row was built (about 3 MB for 200 rows) outlived the young collections during the scan, and
 * were copied, then promoted to the old generation. Handed over one by one, a 100-page job's worker
 * promoted 126–139 MB instead of 408–416, and spent 0.55–0.68 s in young collections instead of
 * 1.30–1.43 (and 0.45–0.60 s of its helper threads' instead of 1.8–2.0).
 *
 * This relies on what a well-formed page gives: a row ends with its `</li>`, the list with its
 * `</ul>`, and a row's parts end inside the row. Whatever does not add up (a row or list that does
 * not close, a part that ends past its row, the list outside the container) returns null, and the
 * caller reads the container as a tree instead.
 */

export type ScannedEntry = { kind: 'row'; element: Element; layout: 'card' | 'item' } | { kind: 'answer'; element: Element };

export interface ScannedResults {
  /** Links to listings in the list that no row or answer holds: rows of a layout the scan does not know. */
  strayLinks: number;
}

/** The parts of each layout a row reader looks at; each is parsed whole, as it stands in the page. */
const CARD_PARTS = new Set(['s-card__title', 's-card__caption', 's-card__image', 's-card__subtitle', 'su-card-container__attributes__primary', 'su-card-container__attributes__secondary']);
const ITEM_PARTS = new Set([
  's-item__title', 's-item__price', 's-item__link', 's-item__image-img', 's-item__image', 's-item__caption--signal', 's-item__subtitle', 's-item__detail',
  's-item__seller-info-text', 's-item__etrs-text', 's-item__title--tagblock',
]);
/** Every part either row reader looks at. */
export const ROW_PARTS: ReadonlySet<string> = new Set([...CARD_PARTS, ...ITEM_PARTS]);
/** Answers (dividers among them) and the hidden placeholders: rows inside them are not results. */
const ANSWER_CLASSES = ['srp-river-answer', 'srp-river-answer--REWRITE_START', 's-clipped'];
/** Rows, answers and placeholders, in one pass over the list. */
const ENTRY_CLASSES = new Set(['s-card', 's-item', ...ANSWER_CLASSES]);
/** Entries, parts and item links: the class names whole (a class ends at whitespace, a quote, "=", "/" or ">"), or "/itm/". */
const HIT_PATTERN = new RegExp(
  `(?:${[...ENTRY_CLASSES, ...CARD_PARTS, ...ITEM_PARTS].sort((a, b) => b.length - a.length).join('|')})(?=[\\s"'=/>]|$)|/itm/`,
  'g',
);


/**
 * Counts the start and end tags of `name` from the element starting at `start`: where it closes
 * (after its end tag), or, with `limit`, whether it is still open there. Null: it does not close.
 */
function countTags(page: PageText, landmarks: PageLandmarks, name: string, start: number, limit?: number): number | null {
  const { html } = page;
  const open = `<${page.encode(name)}`;
  const close = `</${page.encode(name)}`;
  let depth = 0;
  let nextOpen = html.indexOf(open, start);
  let nextClose = html.indexOf(close, start);
  for (;;) {
    if (limit !== undefined && Math.min(nextOpen === -1 ? Infinity : nextOpen, nextClose === -1 ? Infinity : nextClose) >= limit) return limit;
    if (nextClose === -1) return null;
    if (nextOpen !== -1 && nextOpen < nextClose) {
      const after = html.charCodeAt(nextOpen + open.length);
      if ((isHtmlWhitespace(after) || after === 47 || after === 62) && landmarks.isMarkup(nextOpen)) depth += 1;
      nextOpen = html.indexOf(open, nextOpen + open.length);
    } else {
      const after = html.charCodeAt(nextClose + close.length);
      if ((isHtmlWhitespace(after) || after === 62) && landmarks.isMarkup(nextClose)) {
        depth -= 1;
        if (depth === 0) {
          const end = html.indexOf('>', nextClose);
          return end === -1 ? null : end + 1;
        }
      }
      nextClose = html.indexOf(close, nextClose + close.length);
    }
  }
}

type StartTag = { name: string; attribs: Record<string, string>; end: number };

function classesOf(tag: StartTag): string[] {
  return tag.attribs.class ? tag.attribs.class.split(/\s+/) : [];
}

/** What one pass over the results finds: entries (rows, answers, placeholders), row parts, item links. */
interface Hits {
  entries: number[];
  cardParts: number[];
  itemParts: number[];
  links: number[];
}

/** Rows, answers, placeholders, the parts of rows and the item links, in one pass from `from` to `to`. */
function findHits(html: string, landmarks: PageLandmarks, from: number, to: number): Hits {
  const hits: Hits = { entries: [], cardParts: [], itemParts: [], links: [] };
  const found = landmarks.findTagsByClassPattern(
    HIT_PATTERN,
    (name) => ENTRY_CLASSES.has(name) || CARD_PARTS.has(name) || ITEM_PARTS.has(name),
    from,
    to,
    (match, hit) => {
      if (match !== '/itm/') return;
      const start = landmarks.tagStartAround(hit);
      const after = start === null ? NaN : html.charCodeAt(start + 2);
      if (start !== null && (html.charCodeAt(start + 1) | 0x20) === 97 /* a */ && (isHtmlWhitespace(after) || after === 47)) hits.links.push(start);
    },
  );
  for (const tag of found) {
    if (ENTRY_CLASSES.has(tag.className)) hits.entries.push(tag.start);
    else if (CARD_PARTS.has(tag.className)) hits.cardParts.push(tag.start);
    else hits.itemParts.push(tag.start);
  }
  return hits;
}

/** The positions in sorted `positions` from `from` (inclusive) to `to` (exclusive). */
function within(positions: number[], from: number, to: number): number[] {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (positions[middle]! < from) low = middle + 1;
    else high = middle;
  }
  const found: number[] = [];
  for (let index = low; index < positions.length && positions[index]! < to; index += 1) found.push(positions[index]!);
  return found;
}

/** A row as the row readers see it: its own tag, and its parts (each whole), in document order. */
function readRow(page: PageText, keep: KeptAttributes, tag: StartTag, rowEnd: number, starts: number[]): Element | null {
  const children = parseElementsAt(page, keep, starts, rowEnd);
  return children && adoptChildren(new Element(tag.name, tag.attribs, children));
}

/**
 * The rows and answers of the results list in `container`, each handed to `visit` in document
 * order; null when they do not add up, which may be found after some were handed over (the caller
 * then drops what it read of them).
 */
export function scanResults(page: PageText, landmarks: PageLandmarks, keep: KeptAttributes, container: TagLocation, visit: (entry: ScannedEntry) => void): ScannedResults | null {
  const { html } = page;
  let list: TagLocation | null = landmarks.findTagByClass('srp-results', container.start);
  while (list && list.name !== 'ul') list = landmarks.findTagByClass('srp-results', list.start + 1);
  if (!list) return null;
  // Rows count inside the container's list only: the container must still be open where the list starts.
  if (list.start !== container.start && countTags(page, landmarks, container.name, container.start, list.start) !== list.start) return null;
  const listEnd = countTags(page, landmarks, 'ul', list.start);
  if (listEnd === null) return null;
  const hits = findHits(html, landmarks, container.start, listEnd);

  /** Where each row and answer stands, [start, end), in order. */
  const spans: Array<[number, number]> = [];
  let covered = -1;
  for (const start of [...new Set(hits.entries)].sort((a, b) => a - b)) {
    // Rows and answers inside an answer, or inside a row, are not results.
    if (start < covered) continue;
    const tag = readStartTagAt(page, keep, start);
    if (!tag) return null;
    const classes = classesOf(tag);
    // The same precedence as the tree reader's: a divider, then a row, then any other answer.
    const isRow = !classes.includes('srp-river-answer--REWRITE_START') && tag.name === 'li' && (classes.includes('s-card') || classes.includes('s-item'));
    if (!isRow) {
      if (!ANSWER_CLASSES.some((name) => classes.includes(name))) continue;
      // An answer is read only for what the reader asks of it: a divider's text, a next-page link.
      // Others (carousels of suggestions, banners) are only skipped: their end is counted.
      const end = countTags(page, landmarks, tag.name, start);
      if (end === null || end > listEnd) return null;
      const read = classes.includes('srp-river-answer--REWRITE_START') || html.slice(start, end).includes('pagination__next');
      const element = read ? parseElementAt(page, keep, start) : { element: new Element(tag.name, tag.attribs), end };
      if (!element.element || element.end !== end) return null;
      visit({ kind: 'answer', element: element.element });
      spans.push([start, end]);
      covered = end;
      continue;
    }
    if (start < list.start) continue;
    const rowEnd = countTags(page, landmarks, 'li', start);
    if (rowEnd === null || rowEnd > listEnd) return null;
    const layout = classes.includes('s-card') ? 'card' : 'item';
    // The card reader also takes the first link to the item, wherever it is in the card; a row of
    // either whose reader finds no id is told from one without a link by its links.
    const parts = [...within(layout === 'card' ? hits.cardParts : hits.itemParts, tag.end, rowEnd), ...within(hits.links, tag.end, rowEnd)];
    const element = readRow(page, keep, tag, rowEnd, parts);
    if (!element) return null;
    visit({ kind: 'row', element, layout });
    spans.push([start, rowEnd]);
    covered = rowEnd;
  }
  return { strayLinks: strayLinkCount(page, keep, within(hits.links, list.start, listEnd), spans) };
}

/** The links to listings (`/itm/{9 to 15 digits}`) among `links` that none of `spans` (in order) holds. */
function strayLinkCount(page: PageText, keep: KeptAttributes, links: number[], spans: Array<[number, number]>): number {
  let count = 0;
  let span = 0;
  for (const link of links) {
    while (span < spans.length && spans[span]![1] <= link) span += 1;
    if (span < spans.length && spans[span]![0] <= link) continue;
    const href = readStartTagAt(page, keep, link)?.attribs.href;
    if (href !== undefined && ITEM_LINK.test(href)) count += 1;
  }
  return count;
}
