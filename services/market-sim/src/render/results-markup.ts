import type { ResultLayout } from '../directives.js';
import type { Listing } from '../listings.js';
import type { SiteLocale } from '../locales.js';
import { hashString, randomFrom } from '../random.js';
import type { SimPage, SimQuery, SimRow } from '../search-results.js';
import { markerComment, token, trackingAttributes } from './page-furniture.js';

/**
 * What every layout of results shares: the render context, what a row says (title, link, the
 * format, shipping and location lines), the noise full pages add to rows, and the river of the
 * layouts whose results stand in `ul.srp-results`.
 */

export interface SearchRenderContext {
  query: SimQuery;
  page: SimPage;
  /** `{origin}/{site}`: where this site's pages live on the simulator. */
  siteBase: string;
  /** The simulator's own origin (images). */
  origin: string;
  /** The request's URL, to build the next-page link. */
  requestUrl: URL;
  /** The markup of the results (`sim:layout=NAME`); the marketplace's current cards when not given. */
  layout?: ResultLayout;
}

/** How a layout writes the results: each row, and the river around the list's entries (rows, divider, pagination). */
export interface ResultsMarkup {
  row(row: SimRow, index: number): string;
  river(entries: string[]): string;
}

export function titleCase(text: string): string {
  return text.replace(/\S+/g, (word) => word.charAt(0).toUpperCase() + word.slice(1));
}

export function imageUrl(origin: string, itemId: string, index: number, size: number): string {
  return `${origin}/images/g/${itemId}-${index}/s-l${size}.jpg`;
}

/** The "New Listing" badge: on a tenth of active listings. */
export function isNewListing(listing: Listing, query: SimQuery): boolean {
  return !query.sold && Number(listing.itemId[9]) === 7;
}

/** The row's link to its item, escaped for an attribute; on full pages it ends with the tracking blob real links carry. */
export function itemHref(context: SearchRenderContext, listing: Listing, noise: RowNoise): string {
  return `${context.siteBase}/itm/${listing.itemId}?itmmeta=01SIM${listing.itemId.slice(-6)}&amp;hash=item${Number(listing.itemId).toString(16)}${noise.hrefTracking}`;
}

/** The row's element id, as the marketplace writes it: the item id in hexadecimal. */
export function rowId(listing: Listing): string {
  return `item${Number(listing.itemId).toString(16)}`;
}

/** The lines below a row's price, in the site's words: how it sells (or sold), the shipping when known, where from. */
export interface ListingLines {
  format: string;
  shipping: string | null;
  location: string;
}

export function listingLines(listing: Listing, locale: SiteLocale): ListingLines {
  const format =
    listing.format === 'auction'
      ? locale.bids(listing.bids)
      : listing.format === 'bestOffer'
        ? locale.orBestOffer
        : listing.format === 'bestOfferAccepted'
          ? locale.bestOfferAccepted
          : locale.buyItNow;
  const shipping = listing.shipping === null ? null : listing.shipping === 0 ? locale.freeShipping : locale.shipping(locale.money(listing.shipping));
  const location = locale.located(listing.abroad === null ? locale.country : locale.countries[listing.abroad % locale.countries.length]!);
  return { format, shipping, location };
}

/** The lines in the order every layout shows them. */
export function linesInOrder(lines: ListingLines): string[] {
  return lines.shipping === null ? [lines.format, lines.location] : [lines.format, lines.shipping, lines.location];
}

/** What full pages add to every row's markup, whatever its layout: link tracking, image handlers, framework markers. */
export interface RowNoise {
  /** The end of the item link's address: an encrypted tracking blob. */
  hrefTracking: string;
  /** Attributes of the links to the item. */
  link: string;
  /** Attributes of the row's image. */
  image: string;
  marker: () => string;
}

export const LEAN_ROW_NOISE: RowNoise = { hrefTracking: '', link: '', image: '', marker: () => '' };

/** A row's noise, drawn from `random` (its link attributes first); the first four images load first, as on real pages. */
export function rowNoise(random: () => number, listing: Listing, index: number): RowNoise {
  return {
    hrefTracking: `&amp;itmprp=enc%3A${token(randomFrom(hashString(listing.itemId)), 220)}`,
    link: `${trackingAttributes(random, 1686)} target=_blank`,
    image: ` onload="SITE_SPEED.ATF_TIMER.measure(this); if (performance &amp;&amp; performance.mark) { performance.mark(&#34;first-meaningful-paint&#34;); };if(this.naturalWidth === 80 &amp;&amp; this.naturalHeight === 80) {window.SRP.metrics.incrementCounter('imageEmptyError')};" onerror="window.SRP.metrics.incrementCounter('imageLoadError');" fetchPriority=${index < 4 ? 'high' : 'low'}`,
    marker: () => markerComment(random),
  };
}

/** The random source of a row's noise: the same for a listing wherever it is shown. */
export function noiseRandom(listing: Listing): () => number {
  return randomFrom(hashString(`noise|${listing.itemId}`));
}

/** The names of the results' container and list in the layouts that use `ul.srp-results` (or, for `unknown`, names no parser knows). */
export interface ListNames {
  container: string;
  list: string;
}

export const MARKETPLACE_LIST: ListNames = { container: 'srp-river-results', list: 'srp-results' };

/** The river of the `ul.srp-results` layouts: the hidden placeholders, then the container and its list of entries. */
export function listRiver(placeholders: string, entries: string[], names: ListNames = MARKETPLACE_LIST): string {
  return `<div class="srp-river"><div id="srp-river-main" class="srp-river-main clearfix">${placeholders}<div id="${names.container}" class="${names.container} clearfix"><ul class="${names.list} srp-list clearfix">${entries.join('')}</ul></div></div></div>`;
}

/** The marketplace's "Shop on eBay" dummy row, twice, each hidden: real pages carry them and parsers must skip them. */
export function hiddenPlaceholders(dummy: string): string {
  return `<div class="s-clipped" aria-hidden="true">${dummy}</div><div class="s-clipped" aria-hidden="true">${dummy}</div>`;
}
