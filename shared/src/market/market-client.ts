import type { ListingQuery } from '../contract/listing.js';
import type { MarketSite } from '../contract/market-sites.js';
import { AppError } from '../errors/app-error.js';
import { compsOfItem } from '../comps/listing-comps.js';
import { buildListingCollection } from './build-collection.js';
import { classifyAnswer, type UpstreamAnswer } from './classify-answer.js';
import { UNRECOGNIZED_LAYOUT_MESSAGE, type LayoutWatch } from './layout-watch.js';
import { PageFetcher, type FetchedPage } from './fetch/fetch-page.js';
import type { MarketCall, MarketValue } from './market-call.js';
import type { MarketConfig } from './market-config.js';
import { readItemPage, type ParsedItemPage } from './parse/item-page.js';
import { PageText } from './parse/page-text.js';
import { parseSearchPage, type ParsedSearchPage } from './parse/search-page.js';
import { buildItemUrl, buildSearchUrl } from './search-url.js';
import { SITE_PROFILES } from './sites.js';

export interface Fetched<T> {
  result: T;
  url: string;
  fetchedAt: Date;
  upstreamMs: number;
}

/**
 * Reads a search answer (live or saved, bytes or text) into a parsed page, or the contract error it
 * amounts to: a page whose layout went unrecognized is an error (told to `layoutWatch`), never an
 * empty or partial success.
 */
export function interpretSearchAnswer(answer: UpstreamAnswer, site: MarketSite, layoutWatch?: Pick<LayoutWatch, 'record'>): ParsedSearchPage {
  // Read once (from bytes: one copy, no decoding) for the verdict and the parser both.
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

/**
 * The marketplace, as the services see it: one upstream call per search, category or item request,
 * classified, then parsed. Failures are the contract's upstream errors.
 */
export class MarketClient {
  private readonly fetcher: PageFetcher;

  constructor(
    private readonly config: MarketConfig,
    private readonly layoutWatch?: Pick<LayoutWatch, 'record'>,
  ) {
    this.fetcher = new PageFetcher(config);
  }

  private async get(url: string, site: MarketSite, signal: AbortSignal | undefined): Promise<FetchedPage & { fetchedAt: Date }> {
    const fetchedAt = new Date();
    const page = await this.fetcher.fetch(url, SITE_PROFILES[site].acceptLanguage, signal);
    return { ...page, fetchedAt };
  }

  /** `signal` abandons the call; the error is then the signal's reason. */
  async search(query: ListingQuery, signal?: AbortSignal): Promise<Fetched<ParsedSearchPage>> {
    const url = buildSearchUrl(this.config.origins[query.marketSite], query);
    const answer = await this.get(url, query.marketSite, signal);
    return { result: interpretSearchAnswer(answer, query.marketSite, this.layoutWatch), url, fetchedAt: answer.fetchedAt, upstreamMs: answer.elapsedMs };
  }

  async item(itemId: string, site: MarketSite, signal?: AbortSignal): Promise<Fetched<ParsedItemPage>> {
    const url = buildItemUrl(this.config.origins[site], itemId);
    const answer = await this.get(url, site, signal);
    return { result: interpretItemAnswer(answer, site, itemId), url, fetchedAt: answer.fetchedAt, upstreamMs: answer.elapsedMs };
  }

  /**
   * One call answered in the contract's shape: a search or category browse as a listing collection,
   * an item as its details, each carrying the request's id and where and when it was fetched.
   */
  async answer<C extends MarketCall>(call: C, requestId: string, signal?: AbortSignal): Promise<MarketValue<C>> {
    if (call.kind === 'item') {
      const fetched = await this.item(call.itemId, call.marketSite, signal);
      const source = { marketSite: call.marketSite, fetchedAt: fetched.fetchedAt.toISOString(), upstreamMs: fetched.upstreamMs };
      return { ...fetched.result, comps: compsOfItem(fetched.result, call.marketSite), marketSite: call.marketSite, source, requestId } as MarketValue<C>;
    }
    const fetched = await this.search(call.query, signal);
    const source = { marketSite: call.query.marketSite, fetchedAt: fetched.fetchedAt.toISOString(), upstreamMs: fetched.upstreamMs };
    return buildListingCollection(fetched.result, call.query, source, requestId) as MarketValue<C>;
  }

  close(): Promise<void> {
    return this.fetcher.close();
  }
}
