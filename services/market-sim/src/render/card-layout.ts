import { compactScore, type Listing } from '../listings.js';
import type { SiteLocale } from '../locales.js';
import { between } from '../random.js';
import type { SimRow } from '../search-results.js';
import { escapeHtml } from './html.js';
import { icon, markerComment, token, trackingAttributes } from './page-furniture.js';
import {
  hiddenPlaceholders,
  imageUrl,
  isNewListing,
  itemHref,
  LEAN_ROW_NOISE,
  linesInOrder,
  listingLines,
  listRiver,
  MARKETPLACE_LIST,
  noiseRandom,
  rowId,
  rowNoise,
  type ListNames,
  type ResultsMarkup,
  type RowNoise,
  type SearchRenderContext,
} from './results-markup.js';

/**
 * The marketplace's current results: `li.s-card` cards in `ul.srp-results`. The same cards can
 * carry another class prefix (`q-tile` for `q-tile__title`, …) and stand in a list and container
 * of other names: the `tiles` and `unknown` layouts, markup a parser has never seen.
 */
export interface CardNames extends ListNames {
  /** What every card class starts with: `s-card` on the marketplace. */
  card: string;
}

export const CARD_NAMES: CardNames = { card: 's-card', ...MARKETPLACE_LIST };
export const TILE_NAMES: CardNames = { card: 'q-tile', ...MARKETPLACE_LIST };
export const UNKNOWN_NAMES: CardNames = { card: 'q-tile', container: 'q-river-results', list: 'q-results' };

function priceRow(listing: Listing, locale: SiteLocale, sold: boolean, card: string): string {
  const tone = sold ? 'positive' : 'primary';
  if (listing.format === 'bestOfferAccepted') {
    return `<span class="su-styled-text ${tone} strikethrough large-1 ${card}__price">${escapeHtml(locale.money(listing.price))}</span>`;
  }
  if (listing.priceHigh !== null) {
    return [
      `<span class="su-styled-text ${tone} bold large-1 ${card}__price">${escapeHtml(locale.money(listing.price))}</span>`,
      `<span class="su-styled-text ${tone} bold default ${card}__price">${escapeHtml(locale.rangeWord)}</span>`,
      `<span class="su-styled-text ${tone} bold large-1 ${card}__price">${escapeHtml(locale.money(listing.priceHigh))}</span>`,
    ].join('');
  }
  const was = listing.wasPrice === null ? '' : `<span class="su-spacer --spacing-100"></span><span class="su-styled-text secondary strikethrough large">${escapeHtml(locale.money(listing.wasPrice))}</span>`;
  return `<span class="su-styled-text ${tone} bold large-1 ${card}__price">${escapeHtml(locale.money(listing.price))}</span>${was}`;
}

/** What real cards carry besides what the parser reads: ratings, the sold page's links, the obfuscated "Sponsored" label. */
interface CardNoise extends RowNoise {
  reviews: string;
  extraRows: string;
  footer: string;
}

const LEAN_NOISE: CardNoise = { ...LEAN_ROW_NOISE, reviews: '', extraRows: '', footer: '' };

function cardNoise(row: SimRow, context: SearchRenderContext, index: number, card: string): CardNoise {
  const random = noiseRandom(row.listing);
  const noise = rowNoise(random, row.listing, index);
  const stars = random() < 0.3 ? `<div class=${card}__product-reviews><div class=${card}__reviews><a _sp=p2351460.m4114.l8597 href="${context.siteBase}/p/${between(random, 1_000_000, 9_999_999)}?iid=${row.listing.itemId}#UserReviews"><div class=x-star-rating>${Array.from({ length: 5 }, () => `${markerComment(random)}${icon('star-filled')}<!--M_5f9c1e2a/-->`).join('')}<span class=clipped>5.0 out of 5 stars.</span></div><span class=${card}__reviews-count><span aria-hidden=false><!--F#f_0-->${between(random, 1, 400)} product ratings<!--F/--></span></span></a></div></div>` : '';
  const similar = context.query.sold
    ? `<div class=${card}__attribute-row><a class=su-link${trackingAttributes(random, 4114)} href="${context.siteBase}/sch/i.html?_nkw=${encodeURIComponent(row.listing.title)}&amp;_id=${row.listing.itemId}&amp;_sis=1"><span class="su-styled-text secondary large">View similar active items</span></a></div><div class=${card}__attribute-row><a class=su-link${trackingAttributes(random, 4114)} href="${context.siteBase}/sl/list?mode=SellLikeItem&amp;itemId=${row.listing.itemId}"><span class="su-styled-text secondary default">Sell one like this</span></a></div>`
    : '';
  const letters = Array.from({ length: 28 }, () => `<span class=s-${token(random, 7).toLowerCase()}>${token(random, 1)}&#8291;</span>`).join('');
  return {
    ...noise,
    reviews: stars,
    extraRows: similar,
    footer: `<div class=su-card-container__footer><div class=${card}__footer><div class=${card}__footer--row><div class=${card}__sep><span aria-labelledby="s-${token(random, 7).toLowerCase()}" role=heading aria-level=6><span aria-hidden=true>${letters}</span></span></div></div></div></div>`,
  };
}

function cardRow(row: SimRow, context: SearchRenderContext, locale: SiteLocale, noise: CardNoise, card: string): string {
  const { listing } = row;
  const { query } = context;
  const href = itemHref(context, listing, noise);
  const title = escapeHtml(listing.title);
  const badge = isNewListing(listing, query) ? `<span class="${card}__new-listing">${escapeHtml(locale.newListing)}</span>` : '';
  const caption = query.sold
    ? `<div class="${card}__caption"><span class="su-styled-text positive default" aria-label="Sold Item">${escapeHtml(locale.soldCaption(listing.endedOn))}</span></div>`
    : '';
  const rows = linesInOrder(listingLines(listing, locale))
    .map((text) => `<div class="${card}__attribute-row"><span class="su-styled-text secondary large">${escapeHtml(text)}</span></div>`)
    .join('');
  const seller = `<div class="${card}__attribute-row"><span class="su-styled-text primary large">${escapeHtml(listing.seller.username)}</span><span class="su-styled-text primary large">${escapeHtml(locale.sellerFeedback(listing.seller.percent, compactScore(listing.seller.score)))}</span></div>`;
  return `<li class="${card} ${card}--horizontal" data-listingid="${listing.itemId}" id="${rowId(listing)}"><div class="su-card-container su-card-container--horizontal"><div class="su-card-container__media"><div class="su-media-container ${card}__media-wrapper">${noise.marker()}<div class="su-image"><a class="${card}__link image-treatment" href="${href}"${noise.link} target="_blank" tabindex="-1"><img class="${card}__image"${noise.image} src="${imageUrl(context.origin, listing.itemId, 1, 500)}" alt="${title}" loading="lazy"></a></div>${noise.marker()}</div></div><div class="su-card-container__content"><div class="su-card-container__header">${caption}<a class="${card}__link" href="${href}"${noise.link} target="_blank"><div role="heading" aria-level="3" class="${card}__title">${badge}<span class="su-styled-text primary default">${title}</span><span class="clipped">${escapeHtml(locale.opensInNewWindow)}</span></div></a><div class="${card}__subtitle-row"><div class="${card}__subtitle"><span class="su-styled-text secondary default">${escapeHtml(locale.conditions[listing.condition])}</span></div></div>${noise.reviews}</div><div class="su-card-container__attributes su-card-container__attributes--has-secondary"><div class="su-card-container__attributes__primary"><div class="${card}__attribute-row">${priceRow(listing, locale, query.sold, card)}</div>${rows}${noise.extraRows}</div><div class="su-card-container__attributes__secondary">${seller}</div></div>${noise.footer}</div></div></li>`;
}

function placeholderCard(siteBase: string, locale: SiteLocale, card: string): string {
  return `<li class="${card} ${card}--horizontal" data-listingid="2500219655424533"><div class="su-card-container su-card-container--horizontal"><div class="su-card-container__content"><div class="su-card-container__header"><a class="${card}__link" href="${siteBase}/itm/123456?itmmeta=01SIM"><div role="heading" aria-level="3" class="${card}__title"><span class="su-styled-text primary default">Shop on eBay</span></div></a><div class="${card}__subtitle-row"><div class="${card}__subtitle"><span class="su-styled-text secondary default">Brand New</span></div></div></div><div class="su-card-container__attributes"><div class="su-card-container__attributes__primary"><div class="${card}__attribute-row"><span class="su-styled-text primary bold large-1 ${card}__price">${escapeHtml(locale.money(20))}</span></div></div></div></div></div></li>`;
}

/** Cards under `names`: with `full`, each with what real cards carry besides what parsers read. */
export function cardMarkup(context: SearchRenderContext, locale: SiteLocale, full: boolean, names: CardNames): ResultsMarkup {
  return {
    row: (row, index) => cardRow(row, context, locale, full ? cardNoise(row, context, index, names.card) : LEAN_NOISE, names.card),
    river: (entries) => listRiver(hiddenPlaceholders(placeholderCard(context.siteBase, locale, names.card)), entries, names),
  };
}
