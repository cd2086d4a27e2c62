import { SITE_CURRENCY, type MarketSite } from '../contract/market-sites.js';

export interface SiteProfile {
  site: MarketSite;
  /** What requests send as Accept-Language: the site's own language first. */
  acceptLanguage: string;
  currency: string;
  /** The marketplace's real origin, documented for production configuration. */
  productionOrigin: string;
}

export const SITE_PROFILES: Readonly<Record<MarketSite, SiteProfile>> = {
  'market.com': { site: 'market.com', acceptLanguage: 'en-US,en;q=0.9', currency: SITE_CURRENCY['market.com'], productionOrigin: 'https://www.ebay.com' },
  'market.co.uk': { site: 'market.co.uk', acceptLanguage: 'en-GB,en;q=0.9', currency: SITE_CURRENCY['market.co.uk'], productionOrigin: 'https://www.ebay.co.uk' },
  'market.de': { site: 'market.de', acceptLanguage: 'de-DE,de;q=0.9,en;q=0.5', currency: SITE_CURRENCY['market.de'], productionOrigin: 'https://www.ebay.de' },
  'market.fr': { site: 'market.fr', acceptLanguage: 'fr-FR,fr;q=0.9,en;q=0.5', currency: SITE_CURRENCY['market.fr'], productionOrigin: 'https://www.ebay.fr' },
  'market.it': { site: 'market.it', acceptLanguage: 'it-IT,it;q=0.9,en;q=0.5', currency: SITE_CURRENCY['market.it'], productionOrigin: 'https://www.ebay.it' },
  'market.es': { site: 'market.es', acceptLanguage: 'es-ES,es;q=0.9,en;q=0.5', currency: SITE_CURRENCY['market.es'], productionOrigin: 'https://www.ebay.es' },
  'market.ca': { site: 'market.ca', acceptLanguage: 'en-CA,en;q=0.9,fr-CA;q=0.5', currency: SITE_CURRENCY['market.ca'], productionOrigin: 'https://www.ebay.ca' },
  'market.com.au': { site: 'market.com.au', acceptLanguage: 'en-AU,en;q=0.9', currency: SITE_CURRENCY['market.com.au'], productionOrigin: 'https://www.ebay.com.au' },
};
