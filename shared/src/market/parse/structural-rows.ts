import type { AnyNode, Element } from 'domhandler';
import { hasClass, isInside, walk } from './dom.js';
import { imageOf } from './extract-rows.js';
import { parsePrice } from './money.js';
import { ITEM_LINK } from './normalize-row.js';
import type { RawRow } from './raw-row.js';
import { parseSoldCaption } from './sold-date.js';
import { cleanText } from './text.js';
import type { MarketSite } from '../../contract/market-sites.js';

/**
 * Rows of a layout no reader knows, found by what every layout has: a link to the listing. Used
 * for links in a results list that no known row holds, and for known rows their reader cannot read
 * (the field classes were renamed). Only structure and text are trusted: the row is the largest
 * element around an item link that holds no other listing's link; the title is the link's text or
 * the image's alt, the price the first money-shaped text, the sold label the first "Sold …" one.
 */

/** The listing id an element's link points to, if it is a link to a listing. */
function linkedItemId(element: Element): string | null {
  if (element.name !== 'a') return null;
  const href = element.attribs.href;
  return href ? (ITEM_LINK.exec(href)?.[1] ?? null) : null;
}

/** Answers (suggestions, pagination) and hidden placeholders: their links are never results. */
function isOutsideResults(element: Element): boolean {
  return hasClass(element, 'srp-river-answer') || hasClass(element, 's-clipped');
}

/** The links to listings inside `scope`, in document order, leaving out those in answers and placeholders. */
export function itemLinksIn(scope: AnyNode): Element[] {
  const links: Element[] = [];
  walk(scope, (element) => {
    if (isOutsideResults(element)) return false;
    if (linkedItemId(element) !== null) links.push(element);
    return true;
  });
  return links;
}

/**
 * The row of each of `links` (by default every listing linked inside `scope`), in document order:
 * going up from the link, the last element below `scope` that holds no link to another listing
 * (every link in `scope` counts for that).
 */
export function structuralRowsIn(scope: AnyNode, links: readonly Element[] = itemLinksIn(scope)): Element[] {
  // Each element above a link, with the one id it holds, or null once it holds two.
  const idsHeld = new Map<AnyNode, string | null>();
  for (const link of itemLinksIn(scope)) {
    const id = linkedItemId(link)!;
    for (let node: AnyNode | null = link; node && node !== scope; node = node.parent) {
      const held = idsHeld.get(node);
      if (held === undefined) idsHeld.set(node, id);
      else if (held !== id) idsHeld.set(node, null);
    }
  }
  const rows: Element[] = [];
  const seen = new Set<Element>();
  for (const link of links) {
    let row: Element = link;
    for (let node = link.parent; node && node !== scope && idsHeld.get(node) !== null; node = node.parent) row = node as Element;
    if (!seen.has(row)) {
      seen.add(row);
      rows.push(row);
    }
  }
  return rows;
}

/** The texts of a row's elements, one per text run, in document order (scripts and styles left out). */
function textRuns(row: Element): Array<{ text: string; raw: string; element: Element }> {
  const runs: Array<{ text: string; raw: string; element: Element }> = [];
  const visit = (element: Element) => {
    for (const child of element.children) {
      if (child.type === 'text') {
        const raw = (child as { data: string }).data.trim();
        if (raw) runs.push({ text: cleanText(raw), raw, element });
      } else if (child.type === 'tag') visit(child as Element);
    }
  };
  visit(row);
  return runs;
}

/** The title: the text of the first listing link that has one, else the first image's alt. */
function titleOf(row: Element): { title: string; link: Element | null } {
  let found = null as { title: string; link: Element | null } | null;
  let alt = '';
  walk(row, (element) => {
    if (found) return false;
    if (!alt && element.name === 'img' && element.attribs.alt) alt = element.attribs.alt;
    if (linkedItemId(element) === null) return true;
    const text = textRuns(element).map((run) => run.text).join(' ');
    if (text) found = { title: text, link: element };
    return false;
  });
  return found ?? { title: alt, link: null };
}

/** A row of an unknown layout, read from its structure and its texts alone. */
export function extractStructuralRow(row: Element, site: MarketSite): RawRow {
  let href = null as string | null;
  let image = undefined as Element | undefined;
  walk(row, (element) => {
    if (href === null && linkedItemId(element) !== null) href = element.attribs.href!;
    if (image === undefined && element.name === 'img') image = element;
    return href === null || image === undefined;
  });
  const { title, link } = titleOf(row);
  const runs = textRuns(row).filter((run) => link === null || (run.element !== link && !isInside(run.element, link)));
  // Shipping ("+$4.99 delivery") is money too, but it starts with a sign and never comes first.
  const price = runs.find((run) => !run.text.startsWith('+') && parsePrice(run.text, site, { single: true }) !== null);
  const caption = runs.find((run) => parseSoldCaption(run.raw).date !== null);
  return {
    listingId: row.attribs['data-listingid'] ?? null,
    href,
    title,
    imageUrl: imageOf(image),
    caption: caption?.raw ?? null,
    subtitles: [],
    priceParts: price ? [{ text: price.text, classes: price.element.attribs.class ?? '' }] : [],
    rows: runs.filter((run) => run !== price && run !== caption).map((run) => run.text),
    sellerName: null,
    sellerFeedback: null,
  };
}
