import type { BuyingFormat, ListingRow, Seller } from '../../contract/listing.js';
import type { MarketSite } from '../../contract/market-sites.js';
import type { Money } from '../../contract/money.js';
import { ITEM_ID_PATTERN } from '../../contract/listing.js';
import { parseCompactCount, parsePrice } from './money.js';
import type { RawRow } from './raw-row.js';
import { parseSoldCaption } from './sold-date.js';
import { cleanText, foldText, includesAny, startsWithAny } from './text.js';
import {
  BEST_OFFER_ACCEPTED_TEXTS,
  BID_COUNT_PATTERN,
  BUY_IT_NOW_TEXTS,
  FREE_WORDS,
  LOCATION_PREFIXES,
  NEW_LISTING_BADGES,
  OPENS_IN_NEW_WINDOW,
  OR_BEST_OFFER_TEXTS,
  POSITIVE_PERCENT_PATTERN,
  SHIPPING_UNKNOWN_TEXTS,
  SHIPPING_WORDS,
} from './vocabulary.js';

export interface RowContext {
  site: MarketSite;
  looseMatch: boolean;
}

/** `/itm/{id}` or `/itm/{slug}/{id}`: a link to a listing, and its id. */
export const ITEM_LINK = /\/itm\/(?:[^/?#]+\/)?(\d{9,15})(?:[/?#]|$)/;

/** The listing id of a row: its own attribute, else the `/itm/…/{id}` of its link. */
export function itemIdOf(row: RawRow): string | null {
  if (row.listingId && ITEM_ID_PATTERN.test(row.listingId)) return row.listingId;
  const fromUrl = row.href ? ITEM_LINK.exec(row.href)?.[1] : undefined;
  return fromUrl ?? null;
}

/** A decimal IPv4 octet as the URL parser writes it: 0 to 255, no leading zero. */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';

/**
 * An address written as the URL parser would give it up to its `/itm/`: a scheme; a lower-case host
 * name that ends in letters, or a dotted IPv4 address as the parser writes one (no user, nor any
 * character the parser would change); a port, which the parser keeps unless it is the scheme's own
 * (checked after); then path segments of unreserved characters (no dot segment, nothing to
 * escape), which the parser keeps as they are. The marketplace's own links are such (no port, no
 * path before `/itm/`), and so are the simulator's (an address and port, the site's path). What
 * follows `/itm/` must be such segments too (`PLAIN_ITEM_PATH`): a dot segment there would take
 * `/itm` away, and the parser applies it to the whole path.
 */
const PLAIN_ITEM_LINK = new RegExp(
  `^(https?)://((?:[a-z0-9-]+\\.)*[a-z]+|(?:${OCTET}\\.){3}${OCTET})(?::([1-9]\\d{0,4}))?((?:/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*?)/itm/`,
);

/** The rest of the path after `/itm/`, up to the query or fragment: segments of unreserved characters, none a dot segment. */
const PLAIN_ITEM_PATH = /(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?)?(?:[?#]|$)/y;

/** Whether the path of `href` from `from` (just after its `/itm/`) is plain (`PLAIN_ITEM_PATH`). */
function isPlainFrom(href: string, from: number): boolean {
  PLAIN_ITEM_PATH.lastIndex = from;
  return PLAIN_ITEM_PATH.test(href);
}

/** The listing's own address: `/itm/{id}` where the link points, tracking and title slug removed. */
export function canonicalItemUrl(href: string | null, itemId: string): string {
  // Parsing every row's link (a few hundred characters of tracking) costs more than the rest of its row's reading.
  const plain = href === null ? null : PLAIN_ITEM_LINK.exec(href);
  // A host with an IDNA label (`xn--`) is checked by the parser, which refuses one that is not valid punycode.
  if (plain && !plain[2]!.includes('xn--') && isPlainFrom(href!, plain[0].length)) {
    const [, scheme, host, port, path] = plain as unknown as [string, string, string, string | undefined, string];
    const ownPort = scheme === 'https' ? '443' : '80';
    if (port === undefined) return `${scheme}://${host}${path}/itm/${itemId}`;
    if (Number(port) <= 65535 && port !== ownPort) return `${scheme}://${host}:${port}${path}/itm/${itemId}`;
  }
  try {
    const url = new URL(href ?? '');
    // Keep a path prefix in front of /itm/ (a site mounted under a path, as on the simulator).
    const base = url.pathname.slice(0, Math.max(0, url.pathname.indexOf('/itm/')));
    return `${url.origin}${base}/itm/${itemId}`;
  } catch {
    return `/itm/${itemId}`;
  }
}

function cleanTitle(title: string): string {
  let cleaned = cleanText(title);
  const badge = startsWithAny(cleaned, NEW_LISTING_BADGES);
  if (badge) cleaned = cleaned.slice(badge.length).trim();
  for (const phrase of OPENS_IN_NEW_WINDOW) {
    if (cleaned.toLowerCase().endsWith(phrase)) cleaned = cleaned.slice(0, -phrase.length).trim();
  }
  return cleaned;
}

/** "30 Day Warranty / Pre-Owned" → the last subtitle is the condition; "Neu | Gewerblich" → "Neu". */
function conditionOf(subtitles: string[]): string | null {
  const last = subtitles.at(-1);
  if (!last) return null;
  const condition = last.split(/\s+[|·]\s+/)[0]?.trim();
  return condition || null;
}

/** Rows about when, not how much ("delivery by Sat, Nov. 22", "Lieferung bis …") are not the cost. */
const DELIVERY_ESTIMATE = /\b(by|bis|entre|entro|antes|estimated)\b|\d{1,2}\s*(?:[-–]|to|bis|et)\s*\d{1,2}\s*(?:days|tage|jours|giorni|días)/i;

function shippingOf(rows: string[], site: MarketSite, priceCurrency: string | undefined): { shipping: Money | null; shippingText: string | null } {
  const candidates = rows.filter((text) => includesAny(text, SHIPPING_WORDS));
  for (const text of candidates) {
    if (includesAny(text, SHIPPING_UNKNOWN_TEXTS)) return { shipping: null, shippingText: text };
    const parsed = parsePrice(text, site, { single: true });
    if (parsed) return { shipping: parsed.money, shippingText: text };
    if (includesAny(text, FREE_WORDS)) {
      return { shipping: priceCurrency ? { value: 0, currency: priceCurrency } : null, shippingText: text };
    }
  }
  const other = candidates.find((text) => !DELIVERY_ESTIMATE.test(text));
  return { shipping: null, shippingText: other ?? null };
}

const FIXED_PRICE_TEXTS = [...BUY_IT_NOW_TEXTS, ...OR_BEST_OFFER_TEXTS, ...BEST_OFFER_ACCEPTED_TEXTS];

function buyingFormatOf(rows: string[]): { buyingFormat: BuyingFormat | null; bidCount: number | null } {
  for (const row of rows) {
    const bids = BID_COUNT_PATTERN.exec(row);
    if (bids) return { buyingFormat: 'auction', bidCount: parseCompactCount(bids[1]!) };
  }
  const fixedPrice = rows.some((row) => {
    const folded = foldText(row);
    return FIXED_PRICE_TEXTS.some((text) => folded.startsWith(text));
  });
  return { buyingFormat: fixedPrice ? 'buyItNow' : null, bidCount: null };
}

function locationOf(rows: string[]): string | null {
  for (const row of rows) {
    const prefix = startsWithAny(row, LOCATION_PREFIXES);
    if (prefix && !includesAny(row, SHIPPING_WORDS)) return row.slice(prefix.length).trim() || null;
  }
  return null;
}

function sellerOf(row: RawRow): Seller | null {
  if (!row.sellerName && !row.sellerFeedback) return null;
  const feedback = row.sellerFeedback ?? '';
  const percent = POSITIVE_PERCENT_PATTERN.exec(feedback)?.[1];
  const score = /\(([\d.,\s]+[KkMm]?)\)/.exec(feedback)?.[1];
  return {
    username: row.sellerName,
    feedbackScore: score ? parseCompactCount(score) : null,
    positivePercent: percent ? Number(percent.replace(',', '.')) : null,
  };
}

export type NormalizedRow = { ok: true; item: ListingRow } | { ok: false; reason: string };

/** Turns a raw row into a contract listing item, or says why it cannot be one. */
export function normalizeRow(row: RawRow, context: RowContext): NormalizedRow {
  const itemId = itemIdOf(row);
  if (!itemId) return { ok: false, reason: 'no item id' };
  const title = cleanTitle(row.title);
  if (!title) return { ok: false, reason: 'no title' };

  const caption = row.caption ? parseSoldCaption(row.caption) : null;
  const sold = caption?.sold ?? false;

  const priceSpans = row.priceParts.filter((part) => part.text);
  const priceText = priceSpans.length ? cleanText(priceSpans.map((part) => part.text).join(' ')) : null;
  const parsedPrice = priceText ? parsePrice(priceText, context.site) : null;
  const firstPriceClasses = priceSpans[0]?.classes ?? '';
  const bestOfferAccepted =
    /\bstrikethrough\b/i.test(firstPriceClasses) || row.rows.some((text) => includesAny(text, BEST_OFFER_ACCEPTED_TEXTS));
  // Italic prices are converted from the seller's currency: a display, not what was paid.
  const converted = /\bitalic\b/i.test(firstPriceClasses);
  const { buyingFormat, bidCount } = buyingFormatOf(row.rows);
  const { shipping, shippingText } = shippingOf(row.rows, context.site, parsedPrice?.money.currency);

  return {
    ok: true,
    item: {
      itemId,
      title,
      url: canonicalItemUrl(row.href, itemId),
      imageUrl: row.imageUrl,
      condition: conditionOf(row.subtitles),
      sold,
      soldDate: sold ? (caption?.date ?? null) : null,
      soldDateText: sold ? (caption?.text ?? null) : null,
      soldDateVerified: false,
      price: parsedPrice?.money ?? null,
      priceText,
      priceIsDisplayedOnly: !sold || !parsedPrice || parsedPrice.isRange || bestOfferAccepted || converted,
      bestOfferAccepted,
      buyingFormat,
      bidCount,
      shipping,
      shippingText,
      seller: sellerOf(row),
      location: locationOf(row.rows),
      looseMatch: context.looseMatch,
    },
  };
}
