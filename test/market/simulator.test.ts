import t from 'tap';
import type { ListingQuery } from '@comps/shared/contract/listing';
import { MARKET_SITES, SITE_CURRENCY } from '@comps/shared/contract/market-sites';
import { MarketClient } from '@comps/shared/market/market-client';
import { marketConfigFrom, marketEnvFields } from '@comps/shared/market/market-config';
import { buildSearchUrl } from '@comps/shared/market/search-url';
import { z } from 'zod';
import { SAMPLE_QUERY } from '../helpers/listing-query.js';
import { startSimulator } from '../helpers/simulator.js';

const simUrl = await startSimulator(t);
const client = new MarketClient(marketConfigFrom(z.object(marketEnvFields).parse({ MARKET_SIM_URL: simUrl, MARKET_TIMEOUT_MS: '3000' })));
t.teardown(() => client.close());

const query: ListingQuery = { ...SAMPLE_QUERY, keyword: 'sony headphones', exactMatch: false };

const search = async (overrides: Partial<ListingQuery>) => (await client.search({ ...query, ...overrides })).result;

t.test('every site: its language and currency, parsed by the same client as the real pages', async (t) => {
  for (const site of MARKET_SITES) {
    const page = await search({ marketSite: site });
    t.ok(page.items.length > 0, `${site} lists items`);
    t.ok(page.items.every((item) => item.price?.currency === SITE_CURRENCY[site]), `${site}: prices in ${SITE_CURRENCY[site]}`);
    t.ok(page.items.every((item) => item.sold && item.soldDate !== null), `${site}: sold labels parse to dates`);
    t.ok(page.items.every((item) => item.condition && item.location && item.seller?.username), `${site}: condition, location, seller`);
    t.ok(page.items.every((item) => item.url.startsWith(`${simUrl}/${site}/itm/`)), `${site}: item urls`);
  }
  const html = await (await fetch(`${simUrl}/market.de/sch/i.html?_nkw=lego&LH_Sold=1&LH_Complete=1`)).text();
  t.match(html, /Verkauft {2}\d{1,2}\. [A-ZÄa-zä]+\.? \d{4}/, 'German sold labels');
  t.match(html, /EUR \d+,\d\d/, 'prices "EUR 12,50"');
  const fr = await (await fetch(`${simUrl}/market.fr/sch/i.html?_nkw=lego&LH_Sold=1&LH_Complete=1`)).text();
  t.match(fr, /Vendu le \d{1,2} \S+ \d{4}/);
  t.match(fr, /\d+,\d\d EUR/, 'prices "12,50 EUR"');
  const it = await (await fetch(`${simUrl}/market.it/sch/i.html?_nkw=lego&LH_Sold=1&LH_Complete=1`)).text();
  t.match(it, /Venduto il \d{1,2} \S+ \d{4}/);
  const es = await (await fetch(`${simUrl}/market.es/sch/i.html?_nkw=lego&LH_Sold=1&LH_Complete=1`)).text();
  t.match(es, /Vendido el \d{1,2} \S+ \d{4}/);
});

t.test('deterministic: the same URL gives the same page', async (t) => {
  const url = `${simUrl}/market.com/sch/i.html?_nkw=vintage+camera&LH_Sold=1&LH_Complete=1&_pgn=3&_ipg=120`;
  const [first, second] = await Promise.all([fetch(url).then((r) => r.text()), fetch(url).then((r) => r.text())]);
  t.equal(first, second);
});

t.test('the query is honoured', async (t) => {
  t.equal((await search({ count: 60 })).items.length, 60, '60 a page');
  t.equal((await search({ count: 120 })).items.length, 120, '120 a page');
  t.equal((await search({ count: 200 })).items.length, 240, '240 a page');
  t.ok((await search({ sold: false })).items.every((item) => !item.sold), 'active listings');
  t.ok((await search({ itemCondition: 'new' })).items.every((item) => item.condition === 'Brand New'), 'new');
  t.ok((await search({ itemCondition: 'used' })).items.every((item) => item.condition === 'Pre-Owned'), 'used');
  const bounded = await search({ minPrice: 20, maxPrice: 50 });
  t.ok(bounded.items.length > 0 && bounded.items.every((item) => item.price!.value >= 20 && item.price!.value <= 50), 'price bounds');
  t.ok((await search({ buyingFormat: 'auction' })).items.every((item) => item.buyingFormat === 'auction' && item.bidCount! >= 1), 'auctions');
  t.ok((await search({ buyingFormat: 'buyItNow' })).items.every((item) => item.buyingFormat === 'buyItNow'), 'buy it now');
  const total = (item: { price: { value: number } | null; shipping: { value: number } | null }) => item.price!.value + (item.shipping?.value ?? 0);
  const lowest = (await search({ sortOrder: 'pricePlusPostageLowest' })).items.map(total);
  t.strictSame(lowest, [...lowest].sort((a, b) => a - b), 'price + postage, lowest first');
  const highest = (await search({ sortOrder: 'pricePlusPostageHighest' })).items.map(total);
  t.strictSame(highest, [...highest].sort((a, b) => b - a), 'price + postage, highest first');
  const recent = (await search({ sortOrder: 'endedRecently' })).items.map((item) => item.soldDate!);
  t.strictSame(recent, [...recent].sort().reverse(), 'ended recently first');
  const category = await search({ keyword: null, categoryId: '176985' });
  t.ok(category.items.length > 0, 'category browse');
});

const ORDINARY_KEYWORDS = [
  'nintendo', 'nintendo switch', 'iphone', 'lego', 'teapot', 'vintage camera', 'sony headphones', 'pokemon cards', 'lamp', 'ceramic vase',
  'leather wallet', 'mechanical keyboard', 'record player', 'road bike', 'wool sweater', 'board game', 'pocket knife', 'fountain pen', 'desk lamp', 'hiking boots',
];

t.test('ordinary words find many sold listings, popular ones thousands', async (t) => {
  for (const keyword of ORDINARY_KEYWORDS) {
    const page = await search({ keyword, exactMatch: true });
    const sold = page.items.filter((item) => item.sold && !item.looseMatch);
    t.ok(sold.length >= 20, `${keyword}: ${sold.length} sold listings on the first page`);
  }
  for (const keyword of ['nintendo', 'iphone', 'lego']) t.ok((await search({ keyword })).totalResults! >= 1000, `${keyword}: thousands`);
});

t.test('long exact phrases find few, then loose matches; nonsense and sim:empty find nothing', async (t) => {
  const phrase = await search({ keyword: 'canon ae-1 program 35mm film camera body', exactMatch: false });
  t.ok(phrase.totalResults! < 60, `an exact seven-word phrase: ${phrase.totalResults} results`);
  const loose = phrase.items.filter((item) => item.looseMatch);
  t.ok(loose.length > 0, 'loose matches follow');
  t.ok(phrase.items.slice(0, phrase.items.length - loose.length).every((item) => !item.looseMatch), 'below the divider');
  for (const keyword of ['xkcdq', 'qwrtplk zzzzz', 'x sim:empty', 'iphone sim:empty']) {
    const page = await search({ keyword, exactMatch: false });
    t.strictSame([page.items.length, page.totalResults], [0, 0], `${keyword}: nothing`);
  }
  const halfNonsense = await search({ keyword: 'iphone xkcdq', exactMatch: false });
  t.equal(halfNonsense.totalResults, 0, 'a nonsense word matches nothing exactly');
  t.ok(halfNonsense.items.length > 0 && halfNonsense.items.every((item) => item.looseMatch), 'the sensible word finds loose matches');
});

t.test('a handful of rows; past the last page, the last page again', async (t) => {
  const only = await search({ keyword: 'widget sim:total=7' });
  t.strictSame([only.items.length, only.totalResults, only.hasNextPage], [7, 7, false], 'a handful of rows');
  const last = await search({ keyword: 'widget sim:total=130' });
  t.strictSame([last.items.length, last.hasNextPage], [60, true]);
  const third = await search({ keyword: 'widget sim:total=130', page: 3 });
  const beyond = await search({ keyword: 'widget sim:total=130', page: 50 });
  t.equal(third.items.length, 10);
  t.equal(third.hasNextPage, false);
  t.strictSame(beyond.items.map((item) => item.itemId), third.items.map((item) => item.itemId), 'page 50 repeats page 3');
});

t.test('loose matches below the divider', async (t) => {
  const page = await search({ keyword: 'rare blue ceramic teapot sim:total=4' });
  const loose = await search({ keyword: 'rare blue ceramic teapot' });
  t.ok(loose.items.length > 0);
  const directed = await search({ keyword: 'pens sim:total=3 sim:loose=7' });
  t.strictSame(directed.items.map((item) => item.looseMatch), [false, false, false, ...Array(7).fill(true)]);
  t.equal(directed.totalResults, 3, 'the heading counts exact matches only');
  t.equal(page.items.filter((item) => item.looseMatch).length, 0, 'sim:total without sim:loose has none');
  const multiWordFew = await search({ keyword: 'alpha beta gamma delta sim:total=2' });
  t.equal(multiWordFew.items.length, 2);
});

t.test('rows with accepted best offers, auctions with bids, free shipping, ranges', async (t) => {
  const sold = await search({ count: 200, keyword: 'lots of things sim:total=5000' });
  t.ok(sold.items.some((item) => item.bestOfferAccepted && item.priceIsDisplayedOnly), 'best offer accepted');
  t.ok(sold.items.some((item) => item.buyingFormat === 'auction' && item.bidCount! > 0), 'auctions with bids');
  t.ok(sold.items.some((item) => item.shipping?.value === 0), 'free shipping');
  t.ok(sold.items.some((item) => item.shipping === null), 'unknown shipping');
  const active = await search({ count: 200, sold: false, keyword: 'lots of things sim:total=5000' });
  t.ok(active.items.some((item) => item.priceText?.includes(' to ')), 'price ranges');
  t.ok(active.items.some((item) => item.buyingFormat === 'auction' && item.bidCount === 0) || active.items.some((item) => item.buyingFormat === 'auction'), 'active auctions');
});

t.test('item pages for the ids it lists; other ids get the not-found page', async (t) => {
  for (const site of ['market.com', 'market.de', 'market.fr'] as const) {
    const row = (await search({ marketSite: site })).items[0]!;
    const item = (await client.item(row.itemId, site)).result;
    t.equal(item.itemId, row.itemId);
    t.ok(row.title.endsWith(item.title), `${site}: the row names the item`);
    t.strictSame([item.price, item.condition, item.status, item.soldDate, item.buyingFormat], [row.price, row.condition, 'sold', row.soldDate, row.buyingFormat], `${site}: the page agrees with the row`);
    t.ok(item.images.length >= 1 && item.categoryPath.length === 2 && Object.keys(item.itemSpecifics).length >= 3);
  }
  await t.rejects(client.item('123456789012', 'market.com'), { code: 'item_not_found' });
  const response = await fetch(`${simUrl}/market.com/itm/123456789012`);
  t.equal(response.status, 404);
});

t.test('directives in the search text', async (t) => {
  await t.rejects(search({ keyword: 'x sim:block' }), { code: 'upstream_blocked' });
  await t.rejects(search({ keyword: 'x sim:signin' }), { code: 'upstream_blocked', message: /MARKET_COOKIE/ }, 'a redirect to the sign-in page, followed by the fetcher');
  await t.rejects(search({ keyword: 'x sim:throttle' }), { code: 'upstream_rate_limited', retryAfter: 2 });
  await t.rejects(search({ keyword: 'x sim:error' }), { code: 'upstream_error' });
  const started = Date.now();
  await search({ keyword: 'x sim:slow=400' });
  t.ok(Date.now() - started >= 400, 'sim:slow waits');
  const empty = await search({ keyword: 'x sim:empty' });
  t.strictSame([empty.items.length, empty.totalResults], [0, 0]);
  t.equal((await search({ keyword: 'x sim:total=7' })).items.length, 7);
});

t.test('knobs from configuration: latency, throttling of concurrent requests, errors', async (t) => {
  const slowSim = await startSimulator(t, { MARKET_SIM_LATENCY_MS: '300', MARKET_SIM_JITTER_MS: '50' });
  let started = Date.now();
  await fetch(`${slowSim}/market.com/sch/i.html?_nkw=a`);
  t.ok(Date.now() - started >= 300, 'latency');
  const narrowSim = await startSimulator(t, { MARKET_SIM_MAX_CONCURRENT: '1' });
  const statuses = await Promise.all([1, 2, 3].map(() => fetch(`${narrowSim}/market.com/sch/i.html?_nkw=a+sim:slow=300`).then((r) => r.status)));
  t.strictSame(statuses.sort(), [200, 429, 429], 'one at a time; the others throttled');
  const failingSim = await startSimulator(t, { MARKET_SIM_ERROR_RATE: '1' });
  t.equal((await fetch(`${failingSim}/market.com/sch/i.html?_nkw=a`)).status, 500);
  started = Date.now();
  t.equal((await fetch(`${failingSim}/healthz`)).status, 200, 'health is not subject to the knobs');
});

t.test("pages' bytes are read into text by the reader the client is given, searches and items alike", async (t) => {
  const read: number[] = [];
  const config = marketConfigFrom(z.object(marketEnvFields).parse({ MARKET_SIM_URL: simUrl, MARKET_TIMEOUT_MS: '3000' }));
  const reading = new MarketClient(config, {
    oneByteText: (parts) => {
      read.push(parts.reduce((sum, part) => sum + part.length, 0));
      return Buffer.concat(parts).toString('latin1');
    },
  });
  t.teardown(() => reading.close());
  const html = Buffer.from(await (await fetch(buildSearchUrl(config.origins['market.com'], query))).arrayBuffer());
  const page = (await reading.search({ ...query, marketSite: 'market.com' })).result;
  t.strictSame(page, await search({ marketSite: 'market.com' }), 'the same page as the copy reads');
  const itemId = page.items[0]!.itemId;
  const item = (await reading.item(itemId, 'market.com')).result;
  t.equal(item.itemId, itemId, 'the item read');
  t.equal(read.length, 2, 'one read a page');
  t.equal(read[0], html.length, "the search page's bytes, whole");
  // What the reader makes is what is parsed: a text without results is a page that is not a results page.
  const emptying = new MarketClient(config, { oneByteText: () => '<html><body></body></html>' });
  t.teardown(() => emptying.close());
  await t.rejects(emptying.search({ ...query, marketSite: 'market.com' }), { code: 'upstream_error' }, "the reader's text is the one read");
});
