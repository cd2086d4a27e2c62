import type { Listing, ListingFormat } from '../listings.js';
import type { SiteLocale } from '../locales.js';
import type { SimRow } from '../search-results.js';
import { escapeHtml } from './html.js';
import { token } from './page-furniture.js';
import {
  hiddenPlaceholders,
  imageUrl,
  isNewListing,
  itemHref,
  LEAN_ROW_NOISE,
  listingLines,
  listRiver,
  type ListingLines,
  noiseRandom,
  rowId,
  rowNoise,
  type ResultsMarkup,
  type RowNoise,
  type SearchRenderContext,
} from './results-markup.js';

/**
 * The marketplace's older results: `li.s-item` rows in `ul.srp-results`, as the saved pages
 * active_uk_sitem_warhammer.html and active_us_sitem_laptop.html have them. The listing id is only
 * in the link; price, format, shipping, location and seller are each an `.s-item__detail`.
 */

/** The class of the detail that says how a listing sells, as the older pages name it. */
const FORMAT_CLASSES: Record<ListingFormat, string> = {
  auction: 's-item__bids s-item__bidCount',
  buyItNow: 's-item__dynamic s-item__formatBuyItNow',
  bestOffer: 's-item__dynamic s-item__formatBestOfferEnabled',
  bestOfferAccepted: 's-item__dynamic s-item__formatBestOfferAccepted',
};

/** Full pages' rows also carry, now and then, the obfuscated "Sponsored" detail real rows have. */
interface ItemNoise extends RowNoise {
  sponsored: string;
}

const LEAN_NOISE: ItemNoise = { ...LEAN_ROW_NOISE, sponsored: '' };

function itemNoise(row: SimRow, index: number): ItemNoise {
  const random = noiseRandom(row.listing);
  const noise = rowNoise(random, row.listing, index);
  const label = `s-${token(random, 7).toLowerCase()}`;
  const sponsored = random() < 0.3 ? primaryDetail(`<span><span aria-labelledby="${label}" class="${label}_s-${token(random, 7).toLowerCase()}" data-w="derosnopS" role="text"><div aria-hidden="true">Sponsored</div></span></span><span class="s-item__space_bar"></span>`) : '';
  return { ...noise, sponsored };
}

function primaryDetail(content: string): string {
  return `<div class="s-item__detail s-item__detail--primary">${content}</div>`;
}

function secondaryDetail(content: string): string {
  return `<span class="s-item__detail s-item__detail--secondary">${content}</span>`;
}

/** Sold prices are green; an accepted best offer's is struck through (the price asked, not paid); a range reads "£4.49 to £8.49". */
function itemPrice(listing: Listing, locale: SiteLocale, sold: boolean): string {
  const price = escapeHtml(locale.money(listing.price));
  if (listing.format === 'bestOfferAccepted') return `<span class="s-item__price"><span class="STRIKETHROUGH POSITIVE">${price}</span></span>`;
  if (listing.priceHigh !== null) return `<span class="s-item__price">${price}<span class="DEFAULT"> ${escapeHtml(locale.rangeWord)} </span>${escapeHtml(locale.money(listing.priceHigh))}</span>`;
  return `<span class="s-item__price">${sold ? `<span class="POSITIVE">${price}</span>` : price}</span>`;
}

/** The price, the was-price beside a discounted one, how it sells, the shipping when known, then the noise. */
function primaryDetails(listing: Listing, lines: ListingLines, locale: SiteLocale, sold: boolean, noise: ItemNoise): string {
  const was = listing.wasPrice === null ? '' : primaryDetail(`<span class="s-item__additional-price" role="text"><span class="STRIKETHROUGH">${escapeHtml(locale.money(listing.wasPrice))}</span></span>`);
  const shipping = lines.shipping === null ? '' : primaryDetail(`<span class="s-item__shipping s-item__logisticsCost">${escapeHtml(lines.shipping)}</span>`);
  return `${primaryDetail(itemPrice(listing, locale, sold))}${was}${primaryDetail(`<span class="${FORMAT_CLASSES[listing.format]}">${escapeHtml(lines.format)}</span>`)}${shipping}${noise.sponsored}`;
}

/** Where from, and the seller as the older rows write it: "username (1,234) 99.5%". */
function secondaryDetails(listing: Listing, lines: ListingLines, locale: SiteLocale): string {
  const { seller } = listing;
  const sellerInfo = `${seller.username} (${locale.count(seller.score)}) ${locale.percent(seller.percent)}`;
  return `${secondaryDetail(`<span class="s-item__location s-item__itemLocation">${escapeHtml(lines.location)}</span>`)}${secondaryDetail(`<span class="s-item__seller-info"><span class="s-item__seller-info-text">${escapeHtml(sellerInfo)}</span></span>`)}`;
}

/** The sold label sits in the caption above the title ("Sold  Jul 5, 2023"); active rows have the caption empty. */
function caption(listing: Listing, locale: SiteLocale, sold: boolean): string {
  const signal = sold ? `<div class="s-item__caption--row"><span class="s-item__caption--signal"><span class="POSITIVE">${escapeHtml(locale.soldCaption(listing.endedOn))}</span></span></div>` : '';
  return `<div class="s-item__caption">${signal}</div>`;
}

function itemRow(row: SimRow, context: SearchRenderContext, locale: SiteLocale, noise: ItemNoise): string {
  const { listing } = row;
  const { sold } = context.query;
  const href = itemHref(context, listing, noise);
  const lines = listingLines(listing, locale);
  const title = escapeHtml(listing.title);
  const badge = isNewListing(listing, context.query) ? `<span class="LIGHT_HIGHLIGHT">${escapeHtml(locale.newListing)}</span>` : '';
  const media = `<div class="s-item__image-section"><div class="s-item__image"><a href="${href}"${noise.link} tabindex="-1" aria-hidden="true"><div class="s-item__image-wrapper image-treatment"><img class="s-item__image-img"${noise.image} src="${imageUrl(context.origin, listing.itemId, 1, 500)}" alt="${title}" loading="eager"></div></a></div>${noise.marker()}</div>`;
  const link = `<a class="s-item__link" href="${href}"${noise.link}><div class="s-item__title"><span role="heading" aria-level="3">${badge}${title}</span></div><span class="clipped">${escapeHtml(locale.opensInNewWindow)}</span></a>`;
  const subtitle = `<div class="s-item__subtitle"><span class="SECONDARY_INFO">${escapeHtml(locale.conditions[listing.condition])}</span></div>`;
  const details = `<div class="s-item__details clearfix"><div class="s-item__details-section--primary">${primaryDetails(listing, lines, locale, sold, noise)}</div><div class="s-item__details-section--center"></div><div class="s-item__details-section--secondary">${secondaryDetails(listing, lines, locale)}</div></div>`;
  return `<li class="s-item s-item__pl-on-bottom" id="${rowId(listing)}"><div class="s-item__wrapper clearfix">${media}<div class="s-item__info clearfix">${caption(listing, locale, sold)}${link}${subtitle}${details}</div></div></li>`;
}

function placeholderItem(siteBase: string, locale: SiteLocale): string {
  return `<li class="s-item s-item__pl-on-bottom"><div class="s-item__wrapper clearfix"><div class="s-item__info clearfix"><div class="s-item__caption"></div><a class="s-item__link" href="${siteBase}/itm/123456?itmmeta=01SIM"><div class="s-item__title"><span role="heading" aria-level="3">Shop on eBay</span></div></a><div class="s-item__subtitle"><span class="SECONDARY_INFO">Brand New</span></div><div class="s-item__details clearfix"><div class="s-item__details-section--primary">${primaryDetail(`<span class="s-item__price">${escapeHtml(locale.money(20))}</span>`)}</div></div></div></div></li>`;
}

/** Older `s-item` rows: with `full`, each with the tracking, handlers and markers real rows carry. */
export function itemMarkup(context: SearchRenderContext, locale: SiteLocale, full: boolean): ResultsMarkup {
  return {
    row: (row, index) => itemRow(row, context, locale, full ? itemNoise(row, index) : LEAN_NOISE),
    river: (entries) => listRiver(hiddenPlaceholders(placeholderItem(context.siteBase, locale)), entries),
  };
}
