import Koa, { type Context } from 'koa';
import { Router } from '@koa/router';
import { marketSiteSchema, type MarketSite } from '@comps/shared/contract/market-sites';
import { healthRoutes } from '@comps/shared/http/health-routes';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { PageStyle, SimKnobs } from '../config.js';
import { ListingProducts, REMEMBERED_LISTINGS } from '../listing-products.js';
import { SITE_LOCALES } from '../locales.js';
import { PageCache } from '../page-cache.js';
import { renderChallengePage, renderItemPage, renderNotFoundPage, renderSignInPage } from '../render/item-page.js';
import { PageFurniture } from '../render/page-furniture.js';
import { renderSearchPage } from '../render/search-page.js';
import { searchRequestOf } from '../search-request.js';
import { searchPage } from '../search-results.js';

// A 1×1 grey JPEG for every listing image.
const IMAGE = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function html(ctx: Context, status: number, body: string | Buffer): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

/** Koa 3's `ctx.origin` is the Origin header; the simulator needs its own address. */
function ownOrigin(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}

function siteOf(ctx: Context): MarketSite | null {
  const parsed = marketSiteSchema.safeParse(ctx.params.site);
  return parsed.success ? parsed.data : null;
}

export interface SimAppOptions {
  knobs: SimKnobs;
  pageStyle: PageStyle;
  /** The most the cache of rendered results pages may hold. */
  cacheBytes: number;
  /** Which product each listed id is of, for its item page; its own, holding the most recent 200,000, when not given. */
  listingProducts?: ListingProducts;
}

/**
 * The marketplace stand-in: every site under `/{site}`, search at `/sch/i.html` (and
 * `/sch/{category}/i.html`), items at `/itm/{id}`. Configured latency, throttling and errors apply
 * to every page; the search text can ask for its own (`sim:…` directives).
 */
export function createSimApp(options: SimAppOptions, logger: Logger): Koa {
  const { knobs } = options;
  const cache = new PageCache(options.cacheBytes);
  const listingProducts = options.listingProducts ?? new ListingProducts(REMEMBERED_LISTINGS);
  const furniture = options.pageStyle === 'full' ? new PageFurniture() : null;
  const app = new Koa();
  app.silent = true;
  app.on('error', (error: unknown) => logger.warn({ err: error }, 'connection error'));
  let inFlight = 0;

  const pages = new Router();
  pages.use(async (ctx, next) => {
    if (knobs.maxConcurrent > 0 && inFlight >= knobs.maxConcurrent) {
      ctx.set('Retry-After', '1');
      return html(ctx, 429, '<!DOCTYPE html><html><head><title>Too Many Requests</title></head><body></body></html>');
    }
    inFlight += 1;
    try {
      if (knobs.errorRate > 0 && Math.random() < knobs.errorRate) {
        return html(ctx, 500, '<!DOCTYPE html><html><head><title>Error</title></head><body>Internal error</body></html>');
      }
      if (knobs.challengeRate > 0 && Math.random() < knobs.challengeRate) return html(ctx, 200, renderChallengePage());
      // The latency is the time to answer, the page's rendering included, as a remote server's would be:
      // the answer goes out that long after the request came in, however long rendering took within it.
      const answerAt = performance.now() + knobs.latencyMs + (knobs.jitterMs > 0 ? Math.random() * knobs.jitterMs : 0);
      await next();
      const left = answerAt - performance.now();
      if (left > 0) await sleep(left);
    } finally {
      inFlight -= 1;
    }
  });

  const search = async (ctx: Context) => {
    const site = siteOf(ctx);
    if (!site) return html(ctx, 404, '<!DOCTYPE html><html><head><title>Not found</title></head><body></body></html>');
    const url = new URL(ctx.href);
    const { query, directives } = searchRequestOf(site, url, ctx.params.category);
    if (directives.throttle) {
      ctx.set('Retry-After', '2');
      return html(ctx, 429, '<!DOCTYPE html><html><head><title>Too Many Requests</title></head><body></body></html>');
    }
    if (directives.error) return html(ctx, 500, '<!DOCTYPE html><html><head><title>Error</title></head><body>Internal error</body></html>');
    if (directives.slowMs > 0) await sleep(directives.slowMs);
    if (directives.block) return html(ctx, 200, renderChallengePage());
    if (directives.signIn) {
      // The marketplace sends sold searches without a signed-in session to its sign-in page.
      return ctx.redirect(`${ownOrigin(ctx)}/${site}/signin/?ru=${encodeURIComponent(url.toString())}`);
    }
    // A page depends on its address alone: rendered once, then served from the cache.
    const key = `${ownOrigin(ctx)}${ctx.url}`;
    let body = cache.get(key);
    if (!body) {
      const page = searchPage(query, directives);
      listingProducts.remember(page.rows.map((row) => row.listing));
      body = Buffer.from(renderSearchPage(site, { query, page, siteBase: `${ownOrigin(ctx)}/${site}`, origin: ownOrigin(ctx), requestUrl: url, layout: directives.layout }, furniture));
      cache.set(key, body);
    }
    html(ctx, 200, body);
  };

  const item = (ctx: Context) => {
    const site = siteOf(ctx);
    const listing = site ? listingProducts.listingOf(String(ctx.params.id), SITE_LOCALES[site].titleLanguage) : null;
    if (!site || !listing) return html(ctx, 404, renderNotFoundPage(site ?? 'market.com'));
    html(ctx, 200, renderItemPage(site, listing, `${ownOrigin(ctx)}/${site}`, ownOrigin(ctx)));
  };

  pages.get('/:site/sch/i.html', search);
  pages.get('/:site/sch/:category/i.html', search);
  pages.get('/:site/signin', (ctx) => html(ctx, 200, renderSignInPage()));
  pages.get('/:site/itm/:id', item);
  pages.get('/:site/itm/:slug/:id', item);

  const assets = new Router();
  assets.get('/images/g/:key/:file', (ctx) => {
    ctx.type = 'image/jpeg';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = IMAGE;
  });

  app.use(healthRoutes({}).routes());
  app.use(assets.routes());
  app.use(pages.routes());
  return app;
}
