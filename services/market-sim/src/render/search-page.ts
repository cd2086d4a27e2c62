import type { MarketSite } from '@comps/shared/contract/market-sites';
import { compactScore, type Listing } from '../listings.js';
import { SITE_LOCALES, type SiteLocale } from '../locales.js';
import type { SimPage, SimQuery, SimRow } from '../search-results.js';
import { escapeHtml } from './html.js';

export interface SearchRenderContext {
  query: SimQuery;
  page: SimPage;
  /** `{origin}/{site}`: where this site's pages live on the simulator. */
  siteBase: string;
  /** The simulator's own origin (images). */
  origin: string;
  /** The request's URL, to build the next-page link. */
  requestUrl: URL;
}

function titleCase(text: string): string {
  return text.replace(/\S+/g, (word) => word.charAt(0).toUpperCase() + word.slice(1));
}

export function imageUrl(origin: string, itemId: string, index: number, size: number): string {
  return `${origin}/images/g/${itemId}-${index}/s-l${size}.jpg`;
}

function rowTitle(row: SimRow, query: SimQuery): string {
  const words = query.keyword.split(/\s+/).filter(Boolean);
  if (words.length === 0) return row.listing.descriptor;
  // Looser matches carry fewer of the search words.
  return `${titleCase(row.loose ? words[0]! : words.join(' '))} ${row.listing.descriptor}`;
}

function priceRow(listing: Listing, locale: SiteLocale, sold: boolean): string {
  const tone = sold ? 'positive' : 'primary';
  if (listing.format === 'bestOfferAccepted') {
    return `<span class="su-styled-text ${tone} strikethrough large-1 s-card__price">${escapeHtml(locale.money(listing.price))}</span>`;
  }
  if (listing.priceHigh !== null) {
    return [
      `<span class="su-styled-text ${tone} bold large-1 s-card__price">${escapeHtml(locale.money(listing.price))}</span>`,
      `<span class="su-styled-text ${tone} bold default s-card__price">${escapeHtml(locale.rangeWord)}</span>`,
      `<span class="su-styled-text ${tone} bold large-1 s-card__price">${escapeHtml(locale.money(listing.priceHigh))}</span>`,
    ].join('');
  }
  const was = listing.wasPrice === null ? '' : `<span class="su-spacer --spacing-100"></span><span class="su-styled-text secondary strikethrough large">${escapeHtml(locale.money(listing.wasPrice))}</span>`;
  return `<span class="su-styled-text ${tone} bold large-1 s-card__price">${escapeHtml(locale.money(listing.price))}</span>${was}`;
}

function attributeRows(listing: Listing, locale: SiteLocale): string[] {
  const rows: string[] = [];
  const format =
    listing.format === 'auction'
      ? locale.bids(listing.bids)
      : listing.format === 'bestOffer'
        ? locale.orBestOffer
        : listing.format === 'bestOfferAccepted'
          ? locale.bestOfferAccepted
          : locale.buyItNow;
  rows.push(format);
  if (listing.shipping !== null) rows.push(listing.shipping === 0 ? locale.freeShipping : locale.shipping(locale.money(listing.shipping)));
  rows.push(locale.located(listing.abroad === null ? locale.country : locale.countries[listing.abroad % locale.countries.length]!));
  return rows;
}

function card(row: SimRow, context: SearchRenderContext, locale: SiteLocale): string {
  const { listing } = row;
  const { query } = context;
  const href = `${context.siteBase}/itm/${listing.itemId}?itmmeta=01SIM${listing.itemId.slice(-6)}&amp;hash=item${Number(listing.itemId).toString(16)}`;
  const title = escapeHtml(rowTitle(row, query));
  const badge = !query.sold && Number(listing.itemId[9]) === 7 ? `<span class="s-card__new-listing">${escapeHtml(locale.newListing)}</span>` : '';
  const caption = query.sold
    ? `<div class="s-card__caption"><span class="su-styled-text positive default" aria-label="Sold Item">${escapeHtml(locale.soldCaption(listing.endedOn))}</span></div>`
    : '';
  const rows = attributeRows(listing, locale)
    .map((text) => `<div class="s-card__attribute-row"><span class="su-styled-text secondary large">${escapeHtml(text)}</span></div>`)
    .join('');
  const seller = `<div class="s-card__attribute-row"><span class="su-styled-text primary large">${escapeHtml(listing.seller.username)}</span><span class="su-styled-text primary large">${escapeHtml(locale.sellerFeedback(listing.seller.percent, compactScore(listing.seller.score)))}</span></div>`;
  return `<li class="s-card s-card--horizontal" data-listingid="${listing.itemId}" id="item${Number(listing.itemId).toString(16)}"><div class="su-card-container su-card-container--horizontal"><div class="su-card-container__media"><div class="su-media-container s-card__media-wrapper"><div class="su-image"><a class="s-card__link image-treatment" href="${href}" target="_blank" tabindex="-1"><img class="s-card__image" src="${imageUrl(context.origin, listing.itemId, 1, 500)}" alt="${title}" loading="lazy"></a></div></div></div><div class="su-card-container__content"><div class="su-card-container__header">${caption}<a class="s-card__link" href="${href}" target="_blank"><div role="heading" aria-level="3" class="s-card__title">${badge}<span class="su-styled-text primary default">${title}</span><span class="clipped">${escapeHtml(locale.opensInNewWindow)}</span></div></a><div class="s-card__subtitle-row"><div class="s-card__subtitle"><span class="su-styled-text secondary default">${escapeHtml(locale.conditions[listing.condition])}</span></div></div></div><div class="su-card-container__attributes su-card-container__attributes--has-secondary"><div class="su-card-container__attributes__primary"><div class="s-card__attribute-row">${priceRow(listing, locale, query.sold)}</div>${rows}</div><div class="su-card-container__attributes__secondary">${seller}</div></div></div></div></li>`;
}

/** The marketplace's "Shop on eBay" dummy cards, which real pages carry and parsers must skip. */
function placeholderCards(siteBase: string, locale: SiteLocale): string {
  const dummy = `<li class="s-card s-card--horizontal" data-listingid="2500219655424533"><div class="su-card-container su-card-container--horizontal"><div class="su-card-container__content"><div class="su-card-container__header"><a class="s-card__link" href="${siteBase}/itm/123456?itmmeta=01SIM"><div role="heading" aria-level="3" class="s-card__title"><span class="su-styled-text primary default">Shop on eBay</span></div></a><div class="s-card__subtitle-row"><div class="s-card__subtitle"><span class="su-styled-text secondary default">Brand New</span></div></div></div><div class="su-card-container__attributes"><div class="su-card-container__attributes__primary"><div class="s-card__attribute-row"><span class="su-styled-text primary bold large-1 s-card__price">${escapeHtml(locale.money(20))}</span></div></div></div></div></div></li>`;
  return `<div class="s-clipped" aria-hidden="true">${dummy}</div><div class="s-clipped" aria-hidden="true">${dummy}</div>`;
}

function nextLink(context: SearchRenderContext): string {
  if (context.page.page >= context.page.lastPage) return '';
  const next = new URL(context.requestUrl.toString());
  next.searchParams.set('_pgn', String(context.page.page + 1));
  const href = `${context.siteBase}/sch/i.html?${next.searchParams.toString()}`;
  return `<a href="${escapeHtml(href)}" type="next" class="pagination__next icon-link" aria-label="Go to next search page"></a>`;
}

/** A results page in the marketplace's current `s-card` structure. */
export function renderSearchPage(site: MarketSite, context: SearchRenderContext): string {
  const locale = SITE_LOCALES[site];
  const keyword = escapeHtml(context.query.keyword || context.query.categoryId);
  const exact = context.page.rows.filter((row) => !row.loose);
  const loose = context.page.rows.filter((row) => row.loose);
  const divider = loose.length
    ? `<li class="srp-river-answer srp-river-answer--REWRITE_START"><section class="su-notice"><section class="section-notice" role="region"><span class="section-notice__main"><p><span class="BOLD">${escapeHtml(locale.looseDivider)}</span></p></span></section></section></li>`
    : '';
  const cards = [...exact.map((row) => card(row, context, locale)), divider, ...loose.map((row) => card(row, context, locale))].join('');
  return `<!DOCTYPE html><html lang="${locale.lang}"><head><meta charset="utf-8"><title>${escapeHtml(titleCase(context.query.keyword))} ${escapeHtml(locale.titleSuffix)}</title></head><body><div class="srp-controls"><div class="srp-controls__count"><h1 class="srp-controls__count-heading">${locale.heading(context.page.totalExact, keyword)}</h1></div></div><div class="srp-river"><div id="srp-river-main" class="srp-river-main clearfix">${placeholderCards(context.siteBase, locale)}<div id="srp-river-results" class="srp-river-results clearfix"><ul class="srp-results srp-list clearfix">${cards}</ul></div><nav class="pagination" aria-label="Results Pagination - Page ${context.page.page}">${nextLink(context)}</nav></div></div></body></html>`;
}
