import type { MarketSite } from '@comps/shared/contract/market-sites';
import { compactScore, type Listing } from '../listings.js';
import { SITE_LOCALES, type SiteLocale } from '../locales.js';
import type { SimPage, SimQuery, SimRow } from '../search-results.js';
import { between, hashString, randomFrom } from '../random.js';
import { isNonsenseWord, wordsOf } from '../result-counts.js';
import { escapeHtml } from './html.js';
import { globalHeader, icon, markerComment, resultControls, token, trackingAttributes, type PageFurniture } from './page-furniture.js';

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
  // Looser matches carry fewer of the search words, and none of its nonsense.
  const fewer = words.find((word) => wordsOf(word).some((clean) => !isNonsenseWord(clean)));
  if (row.loose) return fewer ? `${titleCase(fewer)} ${row.listing.descriptor}` : row.listing.descriptor;
  return `${titleCase(words.join(' '))} ${row.listing.descriptor}`;
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

/** What real cards carry besides what the parser reads: tracking, framework markers, ratings, the obfuscated "Sponsored" label. */
interface CardNoise {
  link: string;
  image: string;
  marker: () => string;
  reviews: string;
  extraRows: string;
  footer: string;
}

const LEAN_NOISE: CardNoise = { link: '', image: '', marker: () => '', reviews: '', extraRows: '', footer: '' };

function cardNoise(row: SimRow, context: SearchRenderContext, index: number): CardNoise {
  const random = randomFrom(hashString(`noise|${row.listing.itemId}`));
  const link = `${trackingAttributes(random, 1686)} target=_blank`;
  const stars = random() < 0.3 ? `<div class=s-card__product-reviews><div class=s-card__reviews><a _sp=p2351460.m4114.l8597 href="${context.siteBase}/p/${between(random, 1_000_000, 9_999_999)}?iid=${row.listing.itemId}#UserReviews"><div class=x-star-rating>${Array.from({ length: 5 }, () => `${markerComment(random)}${icon('star-filled')}<!--M_5f9c1e2a/-->`).join('')}<span class=clipped>5.0 out of 5 stars.</span></div><span class=s-card__reviews-count><span aria-hidden=false><!--F#f_0-->${between(random, 1, 400)} product ratings<!--F/--></span></span></a></div></div>` : '';
  const similar = context.query.sold
    ? `<div class=s-card__attribute-row><a class=su-link${trackingAttributes(random, 4114)} href="${context.siteBase}/sch/i.html?_nkw=${encodeURIComponent(row.listing.descriptor)}&amp;_id=${row.listing.itemId}&amp;_sis=1"><span class="su-styled-text secondary large">View similar active items</span></a></div><div class=s-card__attribute-row><a class=su-link${trackingAttributes(random, 4114)} href="${context.siteBase}/sl/list?mode=SellLikeItem&amp;itemId=${row.listing.itemId}"><span class="su-styled-text secondary default">Sell one like this</span></a></div>`
    : '';
  const letters = Array.from({ length: 28 }, () => `<span class=s-${token(random, 7).toLowerCase()}>${token(random, 1)}&#8291;</span>`).join('');
  return {
    link,
    image: ` onload="SITE_SPEED.ATF_TIMER.measure(this); if (performance &amp;&amp; performance.mark) { performance.mark(&#34;first-meaningful-paint&#34;); };if(this.naturalWidth === 80 &amp;&amp; this.naturalHeight === 80) {window.SRP.metrics.incrementCounter('imageEmptyError')};" onerror="window.SRP.metrics.incrementCounter('imageLoadError');" fetchPriority=${index < 4 ? 'high' : 'low'}`,
    marker: () => markerComment(random),
    reviews: stars,
    extraRows: similar,
    footer: `<div class=su-card-container__footer><div class=s-card__footer><div class=s-card__footer--row><div class=s-card__sep><span aria-labelledby="s-${token(random, 7).toLowerCase()}" role=heading aria-level=6><span aria-hidden=true>${letters}</span></span></div></div></div></div>`,
  };
}

function card(row: SimRow, context: SearchRenderContext, locale: SiteLocale, noise: CardNoise): string {
  const { listing } = row;
  const { query } = context;
  const tracking = noise === LEAN_NOISE ? '' : `&amp;itmprp=enc%3A${token(randomFrom(hashString(listing.itemId)), 220)}`;
  const href = `${context.siteBase}/itm/${listing.itemId}?itmmeta=01SIM${listing.itemId.slice(-6)}&amp;hash=item${Number(listing.itemId).toString(16)}${tracking}`;
  const title = escapeHtml(rowTitle(row, query));
  const badge = !query.sold && Number(listing.itemId[9]) === 7 ? `<span class="s-card__new-listing">${escapeHtml(locale.newListing)}</span>` : '';
  const caption = query.sold
    ? `<div class="s-card__caption"><span class="su-styled-text positive default" aria-label="Sold Item">${escapeHtml(locale.soldCaption(listing.endedOn))}</span></div>`
    : '';
  const rows = attributeRows(listing, locale)
    .map((text) => `<div class="s-card__attribute-row"><span class="su-styled-text secondary large">${escapeHtml(text)}</span></div>`)
    .join('');
  const seller = `<div class="s-card__attribute-row"><span class="su-styled-text primary large">${escapeHtml(listing.seller.username)}</span><span class="su-styled-text primary large">${escapeHtml(locale.sellerFeedback(listing.seller.percent, compactScore(listing.seller.score)))}</span></div>`;
  return `<li class="s-card s-card--horizontal" data-listingid="${listing.itemId}" id="item${Number(listing.itemId).toString(16)}"><div class="su-card-container su-card-container--horizontal"><div class="su-card-container__media"><div class="su-media-container s-card__media-wrapper">${noise.marker()}<div class="su-image"><a class="s-card__link image-treatment" href="${href}"${noise.link} target="_blank" tabindex="-1"><img class="s-card__image"${noise.image} src="${imageUrl(context.origin, listing.itemId, 1, 500)}" alt="${title}" loading="lazy"></a></div>${noise.marker()}</div></div><div class="su-card-container__content"><div class="su-card-container__header">${caption}<a class="s-card__link" href="${href}"${noise.link} target="_blank"><div role="heading" aria-level="3" class="s-card__title">${badge}<span class="su-styled-text primary default">${title}</span><span class="clipped">${escapeHtml(locale.opensInNewWindow)}</span></div></a><div class="s-card__subtitle-row"><div class="s-card__subtitle"><span class="su-styled-text secondary default">${escapeHtml(locale.conditions[listing.condition])}</span></div></div>${noise.reviews}</div><div class="su-card-container__attributes su-card-container__attributes--has-secondary"><div class="su-card-container__attributes__primary"><div class="s-card__attribute-row">${priceRow(listing, locale, query.sold)}</div>${rows}${noise.extraRows}</div><div class="su-card-container__attributes__secondary">${seller}</div></div>${noise.footer}</div></div></li>`;
}

/** The marketplace's "Shop on eBay" dummy cards, which real pages carry and parsers must skip. */
function placeholderCards(siteBase: string, locale: SiteLocale): string {
  const dummy = `<li class="s-card s-card--horizontal" data-listingid="2500219655424533"><div class="su-card-container su-card-container--horizontal"><div class="su-card-container__content"><div class="su-card-container__header"><a class="s-card__link" href="${siteBase}/itm/123456?itmmeta=01SIM"><div role="heading" aria-level="3" class="s-card__title"><span class="su-styled-text primary default">Shop on eBay</span></div></a><div class="s-card__subtitle-row"><div class="s-card__subtitle"><span class="su-styled-text secondary default">Brand New</span></div></div></div><div class="su-card-container__attributes"><div class="su-card-container__attributes__primary"><div class="s-card__attribute-row"><span class="su-styled-text primary bold large-1 s-card__price">${escapeHtml(locale.money(20))}</span></div></div></div></div></div></li>`;
  return `<div class="s-clipped" aria-hidden="true">${dummy}</div><div class="s-clipped" aria-hidden="true">${dummy}</div>`;
}

/** The pagination answer at the end of the results list, as real pages have it. */
function pagination(context: SearchRenderContext): string {
  const { page, lastPage } = context.page;
  const pageUrl = (number: number) => {
    const url = new URL(context.requestUrl.toString());
    url.searchParams.set('_pgn', String(number));
    return escapeHtml(`${context.siteBase}/sch/i.html?${url.searchParams.toString()}`);
  };
  const first = Math.max(1, Math.min(page - 4, lastPage - 8));
  const items = [];
  for (let number = first; number <= Math.min(lastPage, first + 8); number += 1) {
    items.push(`<li><a class="pagination__item" href="${pageUrl(number)}"${number === page ? ' aria-current="page"' : ''}>${number}</a></li>`);
  }
  const next = page < lastPage ? `<a href="${pageUrl(page + 1)}" type="next" class="pagination__next icon-link" aria-label="Go to next search page"></a>` : '';
  return `<li class="srp-river-answer srp-river-answer--BASIC_PAGINATION_V2"><div class="s-pagination"><span class="s-pagination__container"><nav class="pagination" role="navigation" aria-label="Results Pagination - Page ${page}"><ol class="pagination__items">${items.join('')}</ol>${next}</nav></span></div></li>`;
}

function resultsRiver(context: SearchRenderContext, locale: SiteLocale, full: boolean): string {
  const exact = context.page.rows.filter((row) => !row.loose);
  const loose = context.page.rows.filter((row) => row.loose);
  const divider = loose.length
    ? `<li class="srp-river-answer srp-river-answer--REWRITE_START"><section class="su-notice"><section class="section-notice" role="region"><span class="section-notice__main"><p><span class="BOLD">${escapeHtml(locale.looseDivider)}</span></p></span></section></section></li>`
    : '';
  const render = (row: SimRow, index: number) => card(row, context, locale, full ? cardNoise(row, context, index) : LEAN_NOISE);
  const cards = [...exact.map(render), divider, ...loose.map((row, index) => render(row, exact.length + index))].join('');
  return `<div class="srp-river"><div id="srp-river-main" class="srp-river-main clearfix">${placeholderCards(context.siteBase, locale)}<div id="srp-river-results" class="srp-river-results clearfix"><ul class="srp-results srp-list clearfix">${cards}${pagination(context)}</ul></div></div></div>`;
}

/** Real results pages weigh 0.7 to 2.4 MB; each URL gets its own weight in that range. */
const FULL_PAGE_BYTES: [number, number] = [700_000, 2_400_000];

/** The page around the river: head scripts and styles, header, refinements, controls, footer, state. */
function fullPage(site: MarketSite, context: SearchRenderContext, furniture: PageFurniture, river: string, heading: string, title: string): string {
  const locale = SITE_LOCALES[site];
  const random = randomFrom(hashString(`page|${context.requestUrl.pathname}${context.requestUrl.search}`));
  const target = between(random, ...FULL_PAGE_BYTES);
  const header = globalHeader(random, context.siteBase, context.query.keyword);
  const boot = furniture.bootScript(random);
  const controls = resultControls(random, heading);
  const footer = furniture.footer(random);
  const rest = Math.max(0, target - (header.length + furniture.sprite.length + boot.length + controls.length + footer.length + river.length));
  const rail = furniture.refinementRail(random, Math.min(360_000, Math.max(60_000, rest * 0.3)));
  const style = furniture.styleSheet(random, random() < 0.4 ? Math.min(230_000, rest * 0.2) : 0);
  const stateRows = context.page.rows.map(({ listing }) => ({
    id: listing.itemId,
    title: listing.descriptor,
    href: `${context.siteBase}/itm/${listing.itemId}`,
    image: imageUrl(context.origin, listing.itemId, 1, 500),
    price: locale.money(listing.price),
  }));
  const state = furniture.stateScript(random, stateRows, Math.max(40_000, rest - rail.length - style.length));
  return `<!DOCTYPE html><html lang="${locale.lang}"><head><meta charset="utf-8"><title>${title}</title><meta name=viewport content="width=device-width, initial-scale=1"><link rel=preconnect href="${context.origin}"><link rel=canonical href="${escapeHtml(context.siteBase)}/sch/i.html">${boot}${style}</head><body class="s-page no-touch skin-large srp--list-view">${furniture.sprite}${header}<div class="srp-main srp-main--isLarge"><div class=srp-main-above-river--top>${markerComment(random)}</div>${rail}<div id=mainContent class="srp-main-content clearfix">${controls}${river}</div></div>${footer}${state}</body></html>`;
}

/**
 * A results page in the marketplace's current `s-card` structure: with `furniture`, the full page
 * a real one is (cards with what real cards carry, inside the page's bulk); without, the cards alone.
 */
export function renderSearchPage(site: MarketSite, context: SearchRenderContext, furniture: PageFurniture | null): string {
  const locale = SITE_LOCALES[site];
  const keyword = escapeHtml(context.query.keyword || context.query.categoryId);
  const heading = locale.heading(context.page.totalExact, keyword);
  const title = `${escapeHtml(titleCase(context.query.keyword))} ${escapeHtml(locale.titleSuffix)}`;
  const river = resultsRiver(context, locale, furniture !== null);
  if (furniture) return fullPage(site, context, furniture, river, heading, title);
  return `<!DOCTYPE html><html lang="${locale.lang}"><head><meta charset="utf-8"><title>${title}</title></head><body><div class="srp-controls"><div class="srp-controls__count"><h1 class="srp-controls__count-heading">${heading}</h1></div></div>${river}</body></html>`;
}
