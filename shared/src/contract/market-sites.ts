import { z } from 'zod';

/** The eight regional sites of the specification, in its order. */
export const MARKET_SITES = [
  'market.com',
  'market.co.uk',
  'market.de',
  'market.fr',
  'market.it',
  'market.es',
  'market.ca',
  'market.com.au',
] as const;

export const marketSiteSchema = z.enum(MARKET_SITES);
export type MarketSite = z.infer<typeof marketSiteSchema>;

export const DEFAULT_MARKET_SITE: MarketSite = 'market.com';

/** Currency a site shows by default (contract, "Conventions"). */
export const SITE_CURRENCY: Readonly<Record<MarketSite, string>> = {
  'market.com': 'USD',
  'market.co.uk': 'GBP',
  'market.de': 'EUR',
  'market.fr': 'EUR',
  'market.it': 'EUR',
  'market.es': 'EUR',
  'market.ca': 'CAD',
  'market.com.au': 'AUD',
};
