import type { MarketSite } from '../contract/market-sites.js';
import { AppError } from '../errors/app-error.js';
import { classifyAnswer, type UpstreamAnswer } from './classify-answer.js';
import { UNRECOGNIZED_LAYOUT_MESSAGE, type LayoutWatch } from './layout-watch.js';
import { readItemPage, type ParsedItemPage } from './parse/item-page.js';
import { PageText } from './parse/page-text.js';
import { parseSearchPage, type ParsedSearchPage } from './parse/search-page.js';

/**
 * Reads a search answer (live or saved, bytes or text) into a parsed page, or the contract error it
 * amounts to: a page whose layout went unrecognized is an error (told to `layoutWatch`), never an
 * empty or partial success.
 */
export function interpretSearchAnswer(answer: UpstreamAnswer, site: MarketSite, layoutWatch?: Pick<LayoutWatch, 'record'>): ParsedSearchPage {
  // Read once (from bytes: no decoding; a body already read is taken as it is) for the verdict and the parser both.
  const body = PageText.of(answer.body);
  const refusal = classifyAnswer(answer, 'search', body);
  if (refusal) throw refusal;
  const { isResultsPage, ...page } = parseSearchPage(body, site);
  if (!isResultsPage) throw new AppError('upstream_error', 'The marketplace answered with a page that is not a results page');
  if (page.unrecognizedLayout) {
    layoutWatch?.record(site, page.unrecognizedLayout.rowClasses);
    throw new AppError('upstream_error', UNRECOGNIZED_LAYOUT_MESSAGE);
  }
  return page;
}

/** Reads an item answer (live or saved, bytes or text) into item details, or the contract error it amounts to. */
export function interpretItemAnswer(answer: UpstreamAnswer, site: MarketSite, itemId: string | null): ParsedItemPage {
  const body = PageText.of(answer.body);
  const refusal = classifyAnswer(answer, 'item', body);
  if (refusal) throw refusal;
  const reading = readItemPage(body, site, itemId);
  if (reading.kind === 'not_found') throw new AppError('item_not_found', 'The marketplace has no listing with that id');
  if (reading.kind === 'not_item') throw new AppError('upstream_error', 'The marketplace answered with a page that is not an item page');
  return reading.item;
}
