import { DEFAULT_MARKET_SITE, marketSiteSchema, type MarketSite } from '@comps/shared/contract/market-sites';
import type { RequestFactsSource } from './route-definition.js';

/** What a request's history entry says of it, known even when its input is refused. */
export interface RequestFacts {
  marketSite: MarketSite | null;
  /** The request carried search text (history records that there was some, never what). */
  hasKeyword: boolean;
}

const NONE: RequestFacts = { marketSite: null, hasKeyword: false };

function hasText(value: unknown): boolean {
  if (typeof value === 'string') return value.trim().length > 0;
  // A repeated query parameter, or a bulk search's keywords.
  return Array.isArray(value) && value.length > 0;
}

/** The facts of a request, from its raw query or body, as its route says where they are. */
export function requestFactsOf(source: RequestFactsSource | undefined, input: { query: Record<string, unknown>; body: unknown }): RequestFacts {
  if (!source) return NONE;
  const fields = (source.from === 'query' ? input.query : input.body) ?? {};
  const values = typeof fields === 'object' ? (fields as Record<string, unknown>) : {};
  const site = marketSiteSchema.safeParse(values.marketSite ?? DEFAULT_MARKET_SITE);
  return {
    marketSite: source.site && site.success ? site.data : null,
    hasKeyword: source.searchText !== undefined && hasText(values[source.searchText]),
  };
}
