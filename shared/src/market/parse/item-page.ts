import type { CheerioAPI } from 'cheerio';
import { Document, type Element } from 'domhandler';
import type { BuyingFormat, ItemDetails, ItemStatus, Seller } from '../../contract/listing.js';
import type { MarketSite } from '../../contract/market-sites.js';
import type { Money } from '../../contract/money.js';
import { ITEM_ID_PATTERN } from '../../contract/listing.js';
import { classList, findAll, findFirst, hasAncestor, hasClass, isInside, textContent, walk } from './dom.js';
import { parseCompactCount, parsePrice } from './money.js';
import { canonicalItemUrl } from './normalize-row.js';
import { isHtmlWhitespace } from './markup-scan.js';
import { PageLandmarks } from './landmarks.js';
import { PageText, type PageSource } from './page-text.js';
import { adoptChildren, KeptAttributes, parseElementsAt, parseSkimmed, type Selection } from './skimmed-tree.js';
import { parseLocalizedDate } from './sold-date.js';
import { cleanText, includesAny, startsWithAny } from './text.js';
import {
  BEST_OFFER_ACCEPTED_TEXTS,
  BID_COUNT_PATTERN,
  FREE_WORDS,
  ITEM_ENDED_TEXTS,
  ITEM_LOCATION_PREFIXES,
  ITEM_NOT_FOUND_TEXTS,
  ITEM_SOLD_TEXTS,
  POSITIVE_PERCENT_PATTERN,
} from './vocabulary.js';

/** The item details a page shows; the caller adds `marketSite`, `source` and `requestId`. */
export type ParsedItemPage = Omit<ItemDetails, 'marketSite' | 'source' | 'requestId' | 'comps'>;

/** Item specifics that repeat the condition with its long description. */
const CONDITION_LABELS = ['condition', 'item condition', 'artikelzustand', 'zustand', 'état', "état de l'objet", 'condizione', 'condizioni', 'estado', 'estado del artículo', '状態'];

/** The classes this parser reads; one walk over the page files every element that has one. */
const CLASSES = [
  'x-item-title__mainTitle', 'x-item-title', 'ux-layout-section--itemId', 'ux-textspans', 'ux-textspans--BOLD', 'ux-textspans--SECONDARY',
  'ux-image-carousel-item', 'ux-image-grid-item', 'breadcrumbs', 'seo-breadcrumb-text', 'ux-layout-section--features', 'ux-layout-section-evo',
  'ux-labels-values', 'ux-labels-values__labels', 'ux-labels-values__values', 'x-sellercard-atf', 'x-sellercard-atf__info__about-seller',
  'x-sellercard-atf__about-seller-item', 'x-sellercard-atf__data-item', 'ux-labels-values--shipping', 'ux-layout-section--shipping', 'x-bin-price',
  'x-bid-price', 'x-bid-count', 'x-price-primary', 'x-price-section', 'x-quantity__availability', 'd-quantity__availability', 'x-item-condition-text',
] as const;
type ClassName = (typeof CLASSES)[number];
const CLASS_SET: ReadonlySet<string> = new Set(CLASSES);
/** The status message: `.d-statusmessage, [data-testid="d-statusmessage"], .x-alert, .ux-message, .vi-notify-msg`. */
const STATUS_CLASSES = new Set(['d-statusmessage', 'x-alert', 'ux-message', 'vi-notify-msg']);
const NAMES = new Set(['title', 'body', 'link', 'meta', 'img', 'time']);

/** The elements of a page this parser reads, by class and by name, in document order. */
class PageIndex {
  private readonly byClass = new Map<string, Element[]>();
  private readonly byName = new Map<string, Element[]>();
  /** Each filed element's place in the document, to merge lists as a selector list does. */
  private readonly order = new Map<Element, number>();
  readonly status: Element[] = [];

  constructor(document: Document) {
    let position = 0;
    walk(document, (element) => {
      position += 1;
      let filed = false;
      if (NAMES.has(element.name)) filed = this.add(this.byName, element.name, element);
      let isStatus = element.attribs['data-testid'] === 'd-statusmessage';
      if (element.attribs.class) {
        for (const name of classList(element)) {
          if (CLASS_SET.has(name) && this.byClass.get(name)?.at(-1) !== element) filed = this.add(this.byClass, name, element);
          if (STATUS_CLASSES.has(name)) isStatus = true;
        }
      }
      if (isStatus) this.status.push(element);
      if (filed) this.order.set(element, position);
    });
  }

  private add(map: Map<string, Element[]>, key: string, element: Element): true {
    const list = map.get(key);
    if (list) list.push(element);
    else map.set(key, [element]);
    return true;
  }

  withClass(name: ClassName): Element[] {
    return this.byClass.get(name) ?? [];
  }

  named(name: string): Element[] {
    return this.byName.get(name) ?? [];
  }

  /** Elements with any of the classes, each once, in document order (as a selector list gives them). */
  withAnyClass(...names: ClassName[]): Element[] {
    const found = [...new Set(names.flatMap((name) => this.withClass(name)))];
    return found.sort((a, b) => this.order.get(a)! - this.order.get(b)!);
  }
}

/** Cheerio's `.text()` of a selection: each element's text (scripts' and styles' included), joined. */
function textOfAll(elements: Element[]): string {
  return elements.map((element) => textContent(element)).join('');
}

/** The item's title element: `h1.x-item-title__mainTitle, .x-item-title`. */
function isItemPage(index: PageIndex): boolean {
  return index.withClass('x-item-title__mainTitle').some((element) => element.name === 'h1') || index.withClass('x-item-title').length > 0;
}

function notFoundIn(index: PageIndex): boolean {
  if (isItemPage(index)) return false;
  return includesAny(cleanText(textOfAll(index.named('title')) + ' ' + textOfAll(index.named('body')).slice(0, 20_000)), ITEM_NOT_FOUND_TEXTS);
}

function canonicalOf(index: PageIndex): string | undefined {
  // A selector's `[rel="canonical"]` ignores case in HTML: `rel` is one of the attributes compared so.
  return index.named('link').find((link) => link.attribs.rel?.toLowerCase() === 'canonical')?.attribs.href;
}

function itemIdOf(index: PageIndex, fallback: string | null): string | null {
  const bold = index.withClass('ux-textspans--BOLD').find((element) => hasAncestor(element, (ancestor) => hasClass(ancestor, 'ux-layout-section--itemId')));
  const candidates = [
    cleanText(bold ? textContent(bold) : ''),
    /\/itm\/(?:[^/?#]+\/)?(\d{9,15})/.exec(canonicalOf(index) ?? '')?.[1] ?? '',
    fallback ?? '',
  ];
  return candidates.find((candidate) => ITEM_ID_PATTERN.test(candidate)) ?? null;
}

function imageSize(url: string): number {
  return Number(/s-l(\d+)/.exec(url)?.[1] ?? 0);
}

function imagesOf(index: PageIndex): string[] {
  // The same picture comes in several sizes (thumbnail, carousel, zoom): one entry per picture, the largest.
  const pictures = new Map<string, string>();
  const images = index.named('img').filter((image) => hasAncestor(image, (ancestor) => hasClass(ancestor, 'ux-image-carousel-item') || hasClass(ancestor, 'ux-image-grid-item')));
  for (const image of images) {
    for (const url of [image.attribs['data-zoom-src'], image.attribs['data-src'], image.attribs.src]) {
      if (!url || !/^https?:\/\//.test(url) || /ebaystatic\.com/.test(url)) continue;
      const key = /\/images\/g\/([^/]+)\//.exec(url)?.[1] ?? url;
      const known = pictures.get(key);
      if (!known || imageSize(url) > imageSize(known)) pictures.set(key, url);
    }
  }
  const found = [...pictures.values()];
  if (found.length === 0) {
    const og = index.named('meta').find((meta) => meta.attribs.property === 'og:image')?.attribs.content;
    if (og) found.push(og);
  }
  return found;
}

function categoryPathOf(index: PageIndex): string[] {
  const path: string[] = [];
  // Category links only: the trail ends with a "see more like this" link to the product page.
  const links = index
    .withClass('seo-breadcrumb-text')
    .filter((link) => link.name === 'a' && link.attribs.href?.includes('/b/') && hasAncestor(link, (ancestor) => ancestor.name === 'nav' && hasClass(ancestor, 'breadcrumbs')));
  for (const link of links) {
    const span = link.children.find((child): child is Element => child.type === 'tag' && child.name === 'span');
    const text = cleanText((span ? textContent(span) : '') || textContent(link));
    if (text && !path.includes(text)) path.push(text);
  }
  return path;
}

/** What a specific's value shows once hidden parts (the "Read more" button, clipped text) are left out. */
const isHiddenPart = (element: Element) => hasClass(element, 'clipped') || element.name === 'button' || hasClass(element, 'ux-expandable-textual-display-block-inline--hidden');

function itemSpecificsOf(index: PageIndex): Record<string, string> {
  const specifics: Record<string, string> = {};
  const pairs = index
    .withClass('ux-labels-values')
    .filter((pair) => hasAncestor(pair, (ancestor) => hasClass(ancestor, 'ux-layout-section--features') || hasClass(ancestor, 'ux-layout-section-evo')));
  for (const pair of pairs) {
    const labels = findFirst(pair, (element) => hasClass(element, 'ux-labels-values__labels'));
    const label = cleanText(labels ? textContent(labels) : '').replace(/\s*:$/, '');
    const values = findFirst(pair, (element) => hasClass(element, 'ux-labels-values__values'));
    let value = '';
    if (values) {
      const span = findFirstVisible(values, (element) => hasClass(element, 'ux-textspans'));
      value = cleanText((span ? textContent(span, isHiddenPart) : '') || textContent(values, isHiddenPart));
    }
    if (!label || !value || label in specifics || CONDITION_LABELS.includes(label.toLowerCase())) continue;
    specifics[label] = value;
  }
  return specifics;
}

/** The first descendant matching `test` outside hidden parts. */
function findFirstVisible(root: Element, test: (element: Element) => boolean): Element | undefined {
  let found: Element | undefined;
  walk(root, (element) => {
    if (found || isHiddenPart(element)) return false;
    if (test(element)) found = element;
    return !found;
  });
  return found;
}

function sellerOf(index: PageIndex): Seller | null {
  const card = index.withClass('x-sellercard-atf')[0];
  if (!card) return null;
  const name = findFirst(card, (element) => hasClass(element, 'ux-textspans--BOLD') && hasAncestor(element, (ancestor) => hasClass(ancestor, 'x-sellercard-atf__info__about-seller')));
  const username = cleanText(name ? textContent(name) : '') || null;
  const texts = (className: string) => findAll(card, (element) => hasClass(element, className)).map((element) => cleanText(textContent(element)));
  const scoreText = texts('x-sellercard-atf__about-seller-item').find((text) => /^\(?[\d.,]+[KkMm]?\)?$/.test(text));
  const percentText = texts('x-sellercard-atf__data-item').find((text) => POSITIVE_PERCENT_PATTERN.test(text));
  const percent = percentText ? POSITIVE_PERCENT_PATTERN.exec(percentText)?.[1] : undefined;
  return {
    username,
    feedbackScore: scoreText ? parseCompactCount(scoreText) : null,
    positivePercent: percent ? Number(percent.replace(',', '.')) : null,
  };
}

function shippingOf(index: PageIndex, site: MarketSite, priceCurrency: string | undefined): { shipping: Money | null; shippingText: string | null } {
  const values = index.withClass('ux-labels-values__values').find((element) => hasAncestor(element, (ancestor) => hasClass(ancestor, 'ux-labels-values--shipping')));
  const spans = values ? findAll(values, (element) => hasClass(element, 'ux-textspans')).map((span) => cleanText(textContent(span))).filter(Boolean) : [];
  const text = spans[0] ?? null;
  if (!text) return { shipping: null, shippingText: null };
  const parsed = parsePrice(text, site, { single: true });
  if (parsed) return { shipping: parsed.money, shippingText: text };
  if (includesAny(text, FREE_WORDS)) return { shipping: priceCurrency ? { value: 0, currency: priceCurrency } : null, shippingText: text };
  return { shipping: null, shippingText: text };
}

function locationOf(index: PageIndex): string | null {
  for (const span of index.withClass('ux-textspans')) {
    if (!hasAncestor(span, (ancestor) => hasClass(ancestor, 'ux-layout-section--shipping'))) continue;
    const text = cleanText(textContent(span));
    const prefix = startsWithAny(text, ITEM_LOCATION_PREFIXES);
    if (prefix) return text.slice(prefix.length).trim() || null;
  }
  return null;
}

function statusOf(index: PageIndex): { status: ItemStatus; message: string | null } {
  const message = cleanText(index.status.map((element) => textContent(element)).join(' ')) || null;
  if (message && includesAny(message, ITEM_SOLD_TEXTS)) return { status: 'sold', message };
  if (message && includesAny(message, ITEM_ENDED_TEXTS)) return { status: 'ended', message };
  if (index.withAnyClass('x-bin-price', 'x-bid-price', 'x-price-primary').length > 0) return { status: 'active', message };
  return { status: 'unknown', message };
}

function quantitySoldOf(index: PageIndex): number | null {
  const text = cleanText(textOfAll(index.withAnyClass('x-quantity__availability', 'd-quantity__availability')));
  const match = /(\d[\d.,]*)\s*(?:sold|verkauft|vendus?|venduti|vendidos|販売済み)/i.exec(text);
  return match ? parseCompactCount(match[1]!) : null;
}

function parseItemIndex(index: PageIndex, site: MarketSite, requestedItemId: string | null): ParsedItemPage | null {
  if (!isItemPage(index)) return null;
  const itemId = itemIdOf(index, requestedItemId);
  if (!itemId) return null;

  const priceElement = index.withClass('x-price-primary')[0];
  const priceSpan = priceElement ? findFirst(priceElement, (element) => hasClass(element, 'ux-textspans') && !hasClass(element, 'ux-textspans--SECONDARY')) : undefined;
  const priceText = cleanText((priceSpan ? textContent(priceSpan) : '') || (priceElement ? textContent(priceElement) : '')) || null;
  const price = priceText ? parsePrice(priceText, site) : null;
  const { status, message } = statusOf(index);
  const sold = status === 'sold';
  const bestOfferAccepted = includesAny(`${message ?? ''} ${cleanText(textOfAll(index.withClass('x-price-section')))}`, BEST_OFFER_ACCEPTED_TEXTS);
  const bidText = cleanText(textOfAll(index.withAnyClass('x-bid-count', 'x-bid-price')));
  const bids = BID_COUNT_PATTERN.exec(bidText);
  const buyingFormat: BuyingFormat | null = index.withClass('x-bid-price').length ? 'auction' : index.withClass('x-bin-price').length ? 'buyItNow' : null;
  const images = imagesOf(index);
  const endedAtAttr = index.named('time').find((time) => time.attribs.datetime !== undefined && index.status.some((status) => isInside(time, status)))?.attribs.datetime;
  const endedAt = endedAtAttr && !Number.isNaN(Date.parse(endedAtAttr)) ? new Date(endedAtAttr).toISOString() : null;
  const soldDate = sold && message ? parseLocalizedDate(message) : null;
  const { shipping, shippingText } = shippingOf(index, site, price?.money.currency);
  const canonical = canonicalOf(index) ?? null;
  const mainTitle = index.withClass('x-item-title__mainTitle').find((element) => element.name === 'h1');
  const titleElement = index.withClass('x-item-title')[0];
  const conditionSpan = index.withClass('ux-textspans').find((span) => hasAncestor(span, (ancestor) => hasClass(ancestor, 'x-item-condition-text')));

  return {
    itemId,
    title: cleanText((mainTitle ? textContent(mainTitle) : '') || (titleElement ? textContent(titleElement) : '')),
    url: canonicalItemUrl(canonical, itemId),
    imageUrl: images[0] ?? null,
    condition: cleanText(conditionSpan ? textContent(conditionSpan) : '') || null,
    sold,
    soldDate,
    soldDateText: sold ? message : null,
    soldDateVerified: false,
    price: price?.money ?? null,
    priceText,
    priceIsDisplayedOnly: !sold || !price || price.isRange || bestOfferAccepted,
    bestOfferAccepted,
    buyingFormat,
    bidCount: buyingFormat === 'auction' && bids ? parseCompactCount(bids[1]!) : null,
    shipping,
    shippingText,
    seller: sellerOf(index),
    location: locationOf(index),
    status,
    images,
    categoryPath: categoryPathOf(index),
    itemSpecifics: itemSpecificsOf(index),
    quantitySold: quantitySoldOf(index),
    endedAt,
  };
}

function documentOf($: CheerioAPI): Document {
  return $.root()[0] as Document;
}

/** The marketplace's "we looked everywhere" answer for an id it does not have. */
export function isItemNotFoundPage($: CheerioAPI): boolean {
  return notFoundIn(new PageIndex(documentOf($)));
}

/** Reads an item page (`/itm/{id}`) from its whole tree. */
export function parseItemPage($: CheerioAPI, site: MarketSite, requestedItemId: string | null = null): ParsedItemPage | null {
  return parseItemIndex(new PageIndex(documentOf($)), site, requestedItemId);
}

/** The attributes the item parser reads; the skimmed trees drop every other. */
const ITEM_ATTRIBUTES = new KeptAttributes(new Set(['class', 'href', 'rel', 'content', 'property', 'data-testid', 'datetime', 'src', 'data-src', 'data-zoom-src']));

/**
 * What of an item page is built: every element with a class this parser reads (or the status
 * message's test id), whole, and the titles, links, metas, images and times; the rest (scripts,
 * wrappers, recommendations) is read for the structure only. Every question the parser asks is
 * about those elements and their ancestors of those classes, so it gets the whole tree's answers.
 */
const ITEM_SELECTION: Selection = {
  // Every class read starts "ux-", "x-", "d-" or "vi-", or holds "breadcrumb": a short test, then `classify` decides.
  candidates: /\b(?:ux|x|d|vi)-|breadcrumb/,
  subtreeNames: new Set(['title', 'link', 'meta', 'img', 'time']),
  classify(element) {
    if (element.attribs['data-testid'] === 'd-statusmessage') return 'subtree';
    return classList(element).some((name) => CLASS_SET.has(name) || STATUS_CLASSES.has(name)) ? 'subtree' : 'none';
  },
};

/** Where an element this parser reads may start: its classes whole, the status message's test id, titles, links, metas. */
const PART_PATTERN = /\b(?:ux|x|d|vi)-[\w-]+|breadcrumbs|data-testid=["']?d-statusmessage|<title|<link|<meta/g;
const PART_CLASSES: ReadonlySet<string> = new Set([...CLASSES, ...STATUS_CLASSES]);

/**
 * The parts of an item page this parser reads, each whole, as one tree (in document order): the
 * elements with its classes (their ancestors of those classes are parts too, so every nesting it
 * asks about is kept), the status message, and the titles, links and metas. Found with one search
 * over the page; the rest (scripts, recommendations, header, footer) is never read. Null when a
 * part does not end as parsed (the caller then builds the selected tree).
 */
function itemParts(page: PageText): Document | null {
  const { html } = page;
  const landmarks = new PageLandmarks(page);
  const starts: number[] = [];
  const onOther = (match: string, at: number) => {
    if (match.startsWith('<')) {
      const after = html.charCodeAt(at + match.length);
      if ((isHtmlWhitespace(after) || after === 47 || after === 62) && landmarks.isMarkup(at)) starts.push(at);
    } else if (match.startsWith('data-testid')) {
      const start = landmarks.tagStartAround(at);
      if (start !== null) starts.push(start);
    }
  };
  for (const part of landmarks.findTagsByClassPattern(PART_PATTERN, (name) => PART_CLASSES.has(name), 0, html.length, onOther, { outsideScripts: true })) starts.push(part.start);
  const children = parseElementsAt(page, ITEM_ATTRIBUTES, starts);
  return children && adoptChildren(new Document(children));
}

export type ItemPageReading = { kind: 'item'; item: ParsedItemPage } | { kind: 'not_found' } | { kind: 'not_item' };

/**
 * Reads an item answer (the api's and the jobs' way): the same answer as `isItemNotFoundPage` and
 * `parseItemPage` on the whole tree, at a fraction of the cost. An item page is read as a skimmed
 * tree of the elements the parser asks about (`ITEM_SELECTION`), then one walk; any other page as
 * its whole skimmed tree, whose text tells the not-found page. The page may come as its bytes (the
 * services' way: see `PageText`) or as text.
 */
export function readItemPage(source: PageSource, site: MarketSite, requestedItemId: string | null): ItemPageReading {
  const page = PageText.of(source);
  const parts = itemParts(page);
  const selected = new PageIndex(parts ?? parseSkimmed(page, ITEM_ATTRIBUTES, { selection: ITEM_SELECTION }));
  if (isItemPage(selected)) {
    // An item page is never the not-found page; only the elements read were built.
    const item = parseItemIndex(selected, site, requestedItemId);
    return item ? { kind: 'item', item } : { kind: 'not_item' };
  }
  // Anything else: the whole page's text tells the not-found page.
  const index = new PageIndex(parseSkimmed(page, ITEM_ATTRIBUTES));
  if (notFoundIn(index)) return { kind: 'not_found' };
  const item = parseItemIndex(index, site, requestedItemId);
  return item ? { kind: 'item', item } : { kind: 'not_item' };
}
