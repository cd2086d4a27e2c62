import { compactScore, type Listing } from '../listings.js';
import type { SiteLocale } from '../locales.js';
import type { SimRow } from '../search-results.js';
import { escapeHtml } from './html.js';
import { token } from './page-furniture.js';
import {
  hiddenPlaceholders,
  imageUrl,
  itemHref,
  LEAN_ROW_NOISE,
  linesInOrder,
  listingLines,
  noiseRandom,
  rowId,
  rowNoise,
  type ResultsMarkup,
  type RowNoise,
  type SearchRenderContext,
} from './results-markup.js';

/**
 * The results as the marketplace served them on market.com.au in July 2026 (the rows of
 * su-item-card-rows.html): `li.su-grid__item > div.su-item-card[data-listingid]` in a
 * `ul.su-grid`, the list inside `div.srp-river-results` in place of `ul.srp-results`. The sold label
 * is a `span.signal.signal--recent` above the title; the price a `span.su-item-card__price`; the
 * format, shipping and location lines plain spans in `.su-card-container__attributes__primary`;
 * the seller one line in `.su-program-badge`.
 */

/** Full pages' rows also carry the view tracking of the row and the obfuscated "Sponsored" footer. */
interface SuNoise extends RowNoise {
  view: string;
  footer: string;
}

const LEAN_NOISE: SuNoise = { ...LEAN_ROW_NOISE, view: '', footer: '' };

function suNoise(row: SimRow, index: number): SuNoise {
  const random = noiseRandom(row.listing);
  const noise = rowNoise(random, row.listing, index);
  const view = ` data-viewport='{"trackableId":"${token(random, 26).toUpperCase()}"}' data-view=mi:1686|iid:${index + 1}`;
  const footer = `<div class=su-card-container__footer><div class=su-sponsored-label><span class=su-sponsored-label__sep><b aria-labelledby="s-${token(random, 7).toLowerCase()} s-${token(random, 7).toLowerCase()}" role=heading aria-level=6><span aria-hidden=true>derosnopS</span></b></span></div></div>`;
  return { ...noise, view, footer };
}

function priceSpan(text: string, extraClasses = 'bold medium'): string {
  return `<span class="su-styled-text primary ${extraClasses} su-item-card__price">${escapeHtml(text)}</span>`;
}

/**
 * The price container. An accepted best offer's price is struck through (the price asked, not
 * paid); a range is three price spans, low, the site's "to", high, as the `s-card` layout writes
 * it (no su page with a range has been seen); a was-price is a struck accessory beside the price.
 */
function priceContainer(listing: Listing, locale: SiteLocale): string {
  const price = locale.money(listing.price);
  const prices =
    listing.format === 'bestOfferAccepted'
      ? priceSpan(price, 'bold strikethrough medium')
      : listing.priceHigh !== null
        ? `${priceSpan(price)}${priceSpan(locale.rangeWord, 'bold default')}${priceSpan(locale.money(listing.priceHigh))}`
        : priceSpan(price);
  const was =
    listing.wasPrice === null
      ? ''
      : `<div class=su-item-card__price-accessories><div class=su-item-card__price-accessory><span class="su-styled-text secondary strikethrough default">${escapeHtml(locale.money(listing.wasPrice))}</span></div></div>`;
  return `<div class=su-item-card__price-container>${prices}${was}</div>`;
}

/** On sold pages the lines are followed by links to similar active items and to selling one. */
function soldLinks(listing: Listing, context: SearchRenderContext): string {
  if (!context.query.sold) return '';
  const similar = `${context.siteBase}/sch/i.html?_nkw=${encodeURIComponent(listing.title)}&amp;_id=${listing.itemId}&amp;_sis=1`;
  const sell = `${context.siteBase}/sl/list?mode=SellLikeItem&amp;itemId=${listing.itemId}&amp;ssPageName=STRK%3AMEWN%3ALILTX`;
  return `<a class=su-link href="${similar}"><span class="su-styled-text default">View similar active items</span></a><a class=su-link href="${sell}"><span class="su-styled-text default">Sell one like this</span></a>`;
}

/** The lines, and the seller in one span: "username 99.4% positive (749)". */
function attributes(listing: Listing, context: SearchRenderContext, locale: SiteLocale): string {
  const lines = linesInOrder(listingLines(listing, locale))
    .map((text) => `<span class="su-styled-text primary default">${escapeHtml(text)}</span>`)
    .join('');
  const seller = `${listing.seller.username} ${locale.sellerFeedback(listing.seller.percent, compactScore(listing.seller.score))}`;
  return `<div class="su-card-container__attributes su-card-container__attributes--has-secondary"><div class=su-card-container__attributes__primary>${lines}${soldLinks(listing, context)}</div><div class=su-card-container__attributes__secondary><div class=su-program-badge><span class="su-styled-text default">${escapeHtml(seller)}</span></div></div></div>`;
}

/** The card's header: the sold label on sold pages, the title, the condition, the price. */
function header(listing: Listing, context: SearchRenderContext, locale: SiteLocale, title: string, href: string, noise: SuNoise): string {
  const signal = context.query.sold ? `<span class="signal signal--recent">${escapeHtml(locale.soldCaption(listing.endedOn))}</span>` : '';
  const titleLink = `<a class="su-link su-item-card__title" href="${href}"${noise.link}><span class="su-styled-text default clamped" role=heading aria-level=3>${title}</span></a>`;
  const subtitle = `<div class=su-item-card__subtitle><span class="su-styled-text secondary small clamped">${escapeHtml(locale.conditions[listing.condition])}</span></div>`;
  return `<div class=su-card-container__header>${signal}<div class=su-item-card__header>${titleLink}${subtitle}</div>${priceContainer(listing, locale)}</div>`;
}

function suRow(row: SimRow, context: SearchRenderContext, locale: SiteLocale, noise: SuNoise): string {
  const { listing } = row;
  const href = itemHref(context, listing, noise);
  const title = escapeHtml(listing.title);
  const media = `<div class=su-card-container__media><div class=su-media-container><a href="${href}" tabindex=-1 data-carousel-tabindex=-1 aria-hidden=true${noise.link} class=su-media-container__link>${noise.marker()}<div class=su-image><div class=image-treatment style="--aspect-ratio: 1;"><img${noise.image} src="${imageUrl(context.origin, listing.itemId, 1, 500)}" alt="${title}" loading=eager></div></div>${noise.marker()}</a></div></div>`;
  const content = `<div class=su-card-container__content>${header(listing, context, locale, title, href, noise)}${attributes(listing, context, locale)}${noise.footer}</div>`;
  return `<li class=su-grid__item data-full-width><div class="su-item-card s-item-card s-item-card--search-evo"${noise.view} id=${rowId(listing)} data-listingid=${listing.itemId}><div class="su-card-container su-card-container--horizontal">${media}${content}</div></div></li>`;
}

/** The hidden "Shop on eBay" card of the su pages: the same markup, no sold label, a listing id that is no item's. */
function placeholderCard(siteBase: string, locale: SiteLocale): string {
  return `<li class=su-grid__item data-full-width><div class="su-item-card s-item-card s-item-card--search-evo" data-listingid=2500219655424533><div class="su-card-container su-card-container--horizontal"><div class=su-card-container__content><div class=su-card-container__header><div class=su-item-card__header><a class="su-link su-item-card__title" href="${siteBase}/itm/123456?itmmeta=01SIM"><span class="su-styled-text default clamped" role=heading aria-level=3>Shop on eBay</span></a><div class=su-item-card__subtitle><span class="su-styled-text secondary small clamped">Brand New</span></div></div><div class=su-item-card__price-container>${priceSpan(locale.money(20))}</div></div></div></div></div></li>`;
}

/**
 * The river: the placeholders inside the results' container, before the list; the list's opening
 * tag as the saved page has it, counting its entries (rows, divider, pagination).
 */
function suRiver(placeholders: string, entries: string[]): string {
  return `<div class="srp-river"><div id="srp-river-main" class="srp-river-main clearfix"><div id="srp-river-results" class="srp-river-results clearfix">${placeholders}<ul class="su-grid su-grid--is-list" data-su-grid data-borders style=--total-items:${entries.length}>${entries.join('')}</ul></div></div></div>`;
}

/** `su-item-card` rows: with `full`, each with the tracking, handlers, markers and footer real rows carry. */
export function suMarkup(context: SearchRenderContext, locale: SiteLocale, full: boolean): ResultsMarkup {
  return {
    row: (row, index) => suRow(row, context, locale, full ? suNoise(row, index) : LEAN_NOISE),
    river: (entries) => suRiver(hiddenPlaceholders(placeholderCard(context.siteBase, locale)), entries),
  };
}
