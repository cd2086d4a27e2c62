import type { ListingQuery } from '../contract/listing.js';
import type { MarketSite } from '../contract/market-sites.js';
import { compsOfItem } from '../comps/listing-comps.js';
import { buildListingCollection } from './build-collection.js';
import type { LayoutWatch } from './layout-watch.js';
import { interpretItemAnswer, interpretSearchAnswer } from './interpret-answer.js';
import { PageFetcher, type FetchedPage } from './fetch/fetch-page.js';
import type { MarketCall, MarketValue } from './market-call.js';
import type { MarketConfig } from './market-config.js';
import type { ParsedItemPage } from './parse/item-page.js';
import type { OneByteText } from '../runtime/one-byte-text.js';
import { PageText } from './parse/page-text.js';
import type { ParsedSearchPage } from './parse/search-page.js';
import { buildItemUrl, buildSearchUrl } from './search-url.js';
import { SITE_PROFILES } from './sites.js';

export interface Fetched<T> {
  result: T;
  url: string;
  fetchedAt: Date;
  upstreamMs: number;
}

/**
 * Reads a fetched search answer into a parsed page (the error it amounts to, rejected): on the calling
 * thread, or in parse threads (parse-threads.ts), which take the answer's body.
 */
export interface SearchAnswerReader {
  read(answer: FetchedPage, site: MarketSite): Promise<ParsedSearchPage>;
}

/** Reads search answers on the calling thread: their bytes into text by `oneByteText` (without it, a copy), then parsed. */
export function callingThreadReader(layoutWatch?: Pick<LayoutWatch, 'record'>, oneByteText?: OneByteText): SearchAnswerReader {
  return { read: async (answer, site) => interpretSearchAnswer({ ...answer, body: PageText.ofParts(answer.body.take(), oneByteText) }, site, layoutWatch) };
}

export interface MarketClientOptions {
  /** Told of the results pages whose layout went unrecognized. */
  layoutWatch?: Pick<LayoutWatch, 'record'>;
  /** Where search answers are read; without it, on the calling thread. */
  searchReader?: SearchAnswerReader;
  /** How the calling thread reads a page's bytes into text (the native helper's; without it, a copy). */
  oneByteText?: OneByteText;
}

/**
 * The marketplace, as the services see it: one upstream call per search, category or item request,
 * classified, then parsed. Failures are the contract's upstream errors.
 */
export class MarketClient {
  private readonly fetcher: PageFetcher;
  private readonly searchReader: SearchAnswerReader;
  private readonly oneByteText: OneByteText | undefined;

  constructor(
    private readonly config: MarketConfig,
    { layoutWatch, searchReader, oneByteText }: MarketClientOptions = {},
  ) {
    this.fetcher = new PageFetcher(config);
    this.oneByteText = oneByteText;
    this.searchReader = searchReader ?? callingThreadReader(layoutWatch, oneByteText);
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
    return { result: await this.searchReader.read(answer, query.marketSite), url, fetchedAt: answer.fetchedAt, upstreamMs: answer.elapsedMs };
  }

  async item(itemId: string, site: MarketSite, signal?: AbortSignal): Promise<Fetched<ParsedItemPage>> {
    const url = buildItemUrl(this.config.origins[site], itemId);
    const answer = await this.get(url, site, signal);
    return { result: interpretItemAnswer({ ...answer, body: PageText.ofParts(answer.body.take(), this.oneByteText) }, site, itemId), url, fetchedAt: answer.fetchedAt, upstreamMs: answer.elapsedMs };
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
