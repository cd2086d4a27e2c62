import t from 'tap';
import { z } from 'zod';
import type { ListingQuery } from '@comps/shared/contract/listing';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { createLogger } from '@comps/shared/logging/create-logger';
import { MarketClient } from '@comps/shared/market/market-client';
import { marketConfigFrom, marketEnvFields } from '@comps/shared/market/market-config';
import { listen } from '@comps/shared/runtime/http-server';
import { loadSimConfig } from '@comps/market-sim/config';
import { createSimApp } from '@comps/market-sim/http/create-app';
import { ListingProducts } from '@comps/market-sim/listing-products';
import { SITE_LOCALES } from '@comps/market-sim/locales';
import { searchUrlTruth, truthOfItem, type TruthRow } from '@comps/market-sim/market-truth';
import { searchRequestOfUrl } from '@comps/market-sim/search-request';
import { searchPage } from '@comps/market-sim/search-results';
import { SAMPLE_QUERY } from '../helpers/listing-query.js';

// The truth module against a served simulator: the truth of the rows a search URL shows, the truth
// of an item id, the item page agreeing with its row for listings of every kind, and what an id is
// when the simulator that serves it never listed it.

const logger = createLogger('market-sim', 'silent');

/** A simulator app (lean pages) remembering its listings' products in `listingProducts`, and a client of it. */
async function simulator(listingProducts: ListingProducts): Promise<{ url: string; client: MarketClient }> {
  const server = await listen(createSimApp({ ...loadSimConfig({ MARKET_SIM_PAGE_STYLE: 'lean' }), listingProducts }, logger).callback(), 0, '127.0.0.1');
  const url = `http://127.0.0.1:${server.port}`;
  const client = new MarketClient(marketConfigFrom(z.object(marketEnvFields).parse({ MARKET_SIM_URL: url, MARKET_TIMEOUT_MS: '5000' })));
  t.teardown(async () => {
    client.close();
    await server.close(100);
  });
  return { url, client };
}

const remembered = new ListingProducts(100_000);
const { client } = await simulator(remembered);
const search = async (overrides: Partial<ListingQuery>) => client.search({ ...SAMPLE_QUERY, exactMatch: false, count: 200, ...overrides });

/** The first row of each sort there is: kind, condition, typo, accepted offer. */
function oneOfEach(rows: TruthRow[], acceptedOffer: (row: TruthRow) => boolean): TruthRow[] {
  const sorts = new Map<string, TruthRow>();
  for (const row of rows) {
    const sort = `${row.truth.kind}/${row.truth.condition}/${row.truth.typo}/${acceptedOffer(row)}`;
    if (!sorts.has(sort)) sorts.set(sort, row);
  }
  return [...sorts.values()];
}

t.test('the truth of the rows a search URL shows; the item page of each agrees with its row, and its truth with the row\'s', async (t) => {
  const cases: Array<[MarketSite, string]> = [
    ['market.com', 'nintendo switch oled'], ['market.de', 'funko pop'], ['market.fr', 'iphone 13'], ['market.it', 'pokemon charizard card'],
    ['market.es', 'leather wallet'], ['market.co.uk', 'sony wh-1000xm4 sim:layout=su'],
  ];
  const sorts = new Set<string>();
  for (const [site, keyword] of cases) {
    const { result: page, url } = await search({ marketSite: site, keyword });
    const truths = searchUrlTruth(url);
    t.strictSame(page.items.map((item) => [item.itemId, item.title, item.price?.value, item.looseMatch]), truths.map((row) => [row.itemId, row.title, row.price, row.loose]), `${site} ${keyword}: the truth lists the rows the page shows, as it shows them`);
    const rows = new Map(page.items.map((item) => [item.itemId, item]));
    for (const row of oneOfEach(truths, (truth) => rows.get(truth.itemId)!.bestOfferAccepted)) {
      const shown = rows.get(row.itemId)!;
      const item = (await client.item(row.itemId, site)).result;
      const name = `${site} ${keyword}: ${row.truth.kind === 'accessory' ? 'an' : 'a'} ${row.truth.kind} (${row.truth.condition}${row.truth.typo ? ', a typo' : ''}${shown.bestOfferAccepted ? ', an accepted offer' : ''})`;
      sorts.add(`${row.truth.kind}/${row.truth.condition}${row.truth.typo ? '/typo' : ''}${shown.bestOfferAccepted ? '/offer' : ''}`);
      t.strictSame(
        [item.itemId, item.title, item.price, item.condition, item.status, item.soldDate, item.buyingFormat, item.seller?.username, item.shipping],
        [shown.itemId, shown.title, shown.price, shown.condition, 'sold', shown.soldDate, shown.buyingFormat, shown.seller?.username, shown.shipping],
        `${name}: the item page agrees with the row`,
      );
      t.strictSame(truthOfItem(row.itemId, site, remembered), row.truth, `${name}: the truth of its id is the row's`);
    }
  }
  for (const sort of ['single/new', 'single/used', 'single/refurbished', 'single/forParts', 'lot/used', 'accessory/new']) t.ok(sorts.has(sort), `among them: ${sort}`);
  t.ok([...sorts].some((sort) => sort.endsWith('/typo')) && [...sorts].some((sort) => sort.endsWith('/offer')), 'a typo and an accepted offer');
});

t.test('a simulator that never listed an id: not found, but for the catalogue\'s listings of category pages', async (t) => {
  const forgetful = new ListingProducts(100_000);
  const other = await simulator(forgetful);
  const keywordRow = (await search({ keyword: 'airpods pro' })).result.items[0]!;
  await t.rejects(other.client.item(keywordRow.itemId, 'market.com'), { code: 'item_not_found' }, 'a keyword\'s listing another simulator listed');
  t.equal(truthOfItem(keywordRow.itemId, 'market.com', forgetful), null, 'and no truth');
  const categoryRow = (await search({ keyword: null, categoryId: '176985' })).result.items[0]!;
  const item = (await other.client.item(categoryRow.itemId, 'market.com')).result;
  t.strictSame([item.title, item.price, item.condition], [categoryRow.title, categoryRow.price, categoryRow.condition], 'a category page\'s listing: the same on any simulator');
  t.strictSame(truthOfItem(categoryRow.itemId, 'market.com', forgetful), truthOfItem(categoryRow.itemId, 'market.com', remembered), 'with the same truth');
  const altered = `${keywordRow.itemId.slice(0, 10)}${String((Number(keywordRow.itemId.slice(10)) + 1) % 97).padStart(2, '0')}`;
  await t.rejects(client.item(altered, 'market.com'), { code: 'item_not_found' }, 'an id the simulator never made, even one digit off');
});

t.test('the memory of listed ids is bounded: the least recently listed are forgotten first', async (t) => {
  const small = new ListingProducts(2);
  const { query, directives } = searchRequestOfUrl('http://sim/market.com/sch/i.html?_nkw=iphone+13&LH_Sold=1&_ipg=60')!;
  const listings = searchPage(query, directives).rows.slice(0, 3).map((row) => row.listing);
  small.remember(listings.slice(0, 2));
  small.remember(listings.slice(0, 1));
  small.remember(listings.slice(2, 3));
  t.strictSame(
    listings.map((listing) => small.listingOf(listing.itemId, 'en')?.title ?? null),
    [listings[0]!.title, null, listings[2]!.title],
    'the second, least recently listed, is forgotten; the first, listed again, is kept',
  );
});

t.test('no row carries the truth: an accepted offer\'s row does not hold what was paid, a typo\'s not the true price', async (t) => {
  const { url } = await simulator(new ListingProducts(1000));
  for (const site of ['market.com', 'market.de'] as const) {
    const address = `${url}/${site}/sch/i.html?_nkw=iphone+13&LH_Sold=1&LH_Complete=1&_ipg=240`;
    const html = await (await fetch(address)).text();
    // Each card's markup, by its listing id (other cards may well show the same amount).
    const cards = new Map(html.split('<li class="s-card ').slice(1).map((card) => [/data-listingid="(\d+)"/.exec(card)![1]!, card]));
    const hidden = searchUrlTruth(address).filter((row) => row.price !== row.truth.paidPrice);
    t.ok(hidden.length > 10 && hidden.every((row) => cards.has(row.itemId)), `${site}: ${hidden.length} rows show another price than was paid`);
    t.strictSame(hidden.filter((row) => cards.get(row.itemId)!.includes(SITE_LOCALES[site].money(row.truth.paidPrice))).map((row) => row.title), [], `${site}: none holds the price paid`);
    t.notMatch(html, /paid|typo|truth/i, `${site}: nor any word of it`);
  }
});
