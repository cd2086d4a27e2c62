import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { ResultLayout } from '../directives.js';
import { SITE_LOCALES, type SiteLocale } from '../locales.js';
import { between, hashString, randomFrom } from '../random.js';
import { CARD_NAMES, cardMarkup, TILE_NAMES, UNKNOWN_NAMES } from './card-layout.js';
import { escapeHtml } from './html.js';
import { itemMarkup } from './item-layout.js';
import { globalHeader, markerComment, resultControls, type PageFurniture } from './page-furniture.js';
import { imageUrl, titleCase, type ResultsMarkup, type SearchRenderContext } from './results-markup.js';
import { suMarkup } from './su-layout.js';

export type { SearchRenderContext } from './results-markup.js';

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

/** How `layout` writes the results: `tiles` and `unknown` are the cards under names no parser knows. */
function resultsMarkup(layout: ResultLayout, context: SearchRenderContext, locale: SiteLocale, full: boolean): ResultsMarkup {
  switch (layout) {
    case 'card':
      return cardMarkup(context, locale, full, CARD_NAMES);
    case 'tiles':
      return cardMarkup(context, locale, full, TILE_NAMES);
    case 'unknown':
      return cardMarkup(context, locale, full, UNKNOWN_NAMES);
    case 'item':
      return itemMarkup(context, locale, full);
    case 'su':
      return suMarkup(context, locale, full);
  }
}

/** The "results matching fewer words" answer between exact and loose matches. */
function looseDivider(locale: SiteLocale): string {
  return `<li class="srp-river-answer srp-river-answer--REWRITE_START"><section class="su-notice"><section class="section-notice" role="region"><span class="section-notice__main"><p><span class="BOLD">${escapeHtml(locale.looseDivider)}</span></p></span></section></section></li>`;
}

/** The results in the context's layout: exact matches, the divider and loose matches when there are any, the pagination. */
function resultsRiver(context: SearchRenderContext, locale: SiteLocale, full: boolean): string {
  const markup = resultsMarkup(context.layout ?? 'card', context, locale, full);
  const exact = context.page.rows.filter((row) => !row.loose);
  const loose = context.page.rows.filter((row) => row.loose);
  const looseEntries = loose.length ? [looseDivider(locale), ...loose.map((row, index) => markup.row(row, exact.length + index))] : [];
  return markup.river([...exact.map(markup.row), ...looseEntries, pagination(context)]);
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
    title: listing.title,
    href: `${context.siteBase}/itm/${listing.itemId}`,
    image: imageUrl(context.origin, listing.itemId, 1, 500),
    price: locale.money(listing.price),
  }));
  const state = furniture.stateScript(random, stateRows, Math.max(40_000, rest - rail.length - style.length));
  return `<!DOCTYPE html><html lang="${locale.lang}"><head><meta charset="utf-8"><title>${title}</title><meta name=viewport content="width=device-width, initial-scale=1"><link rel=preconnect href="${context.origin}"><link rel=canonical href="${escapeHtml(context.siteBase)}/sch/i.html">${boot}${style}</head><body class="s-page no-touch skin-large srp--list-view">${furniture.sprite}${header}<div class="srp-main srp-main--isLarge"><div class=srp-main-above-river--top>${markerComment(random)}</div>${rail}<div id=mainContent class="srp-main-content clearfix">${controls}${river}</div></div>${footer}${state}</body></html>`;
}

/**
 * A results page, its results in the context's layout (the marketplace's current `s-card` cards by
 * default): with `furniture`, the full page a real one is (rows with what real rows carry, inside
 * the page's bulk); without, the rows alone.
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
