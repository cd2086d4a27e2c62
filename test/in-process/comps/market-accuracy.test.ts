import t from 'tap';
import { z } from 'zod';
import type { ListingCollection } from '@comps/shared/contract/listing';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { createLogger } from '@comps/shared/logging/create-logger';
import { marketConfigFrom, marketEnvFields } from '@comps/shared/market/market-config';
import { MarketClient } from '@comps/shared/market/market-client';
import { buildSearchUrl } from '@comps/shared/market/search-url';
import { listen } from '@comps/shared/runtime/http-server';
import { loadSimConfig } from '@comps/market-sim/config';
import { createSimApp } from '@comps/market-sim/http/create-app';
import { searchUrlTruth, type TruthRow } from '@comps/market-sim/market-truth';
import { SAMPLE_QUERY } from '../../helpers/listing-query.js';
import { SIM_PRODUCTS } from '../../helpers/sim-products.js';

// What the API says a thing sells for, against what the simulator's market knows it sold for: for
// 32 products (popular devices that draw accessories, small collectibles that draw lots, ordinary
// goods), `stats.unitPrice.median` of a sold search of 200 listings through the real client and
// parser, against the true median of the clean single sales among the listings returned (a single,
// not for parts, no typo, at the price paid). The naive median of every returned price is shown
// beside it: it must be clearly worse.

const SITES: MarketSite[] = ['market.com', 'market.de', 'market.fr', 'market.it', 'market.es', 'market.co.uk'];
const WITHIN = 0.05;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const isCleanSingle = (row: TruthRow) => row.truth.kind === 'single' && row.truth.condition !== 'forParts' && !row.truth.typo;

const server = await listen(createSimApp(loadSimConfig({ MARKET_SIM_PAGE_STYLE: 'lean' }), createLogger('market-sim', 'silent')).callback(), 0, '127.0.0.1');
const origin = `http://127.0.0.1:${server.port}`;
const config = marketConfigFrom(z.object(marketEnvFields).parse({ MARKET_SIM_URL: origin, MARKET_TIMEOUT_MS: '10000' }));
const client = new MarketClient(config);
t.teardown(async () => {
  await client.close();
  await server.close(100);
});

interface Row {
  product: string;
  site: MarketSite;
  returned: number;
  /** Returned listings the simulator did not list (none, or the comparison means nothing). */
  unknown: number;
  counted: number;
  truth: number;
  api: number | null;
  naive: number;
}

async function measure(product: string, site: MarketSite): Promise<Row> {
  const query = { ...SAMPLE_QUERY, keyword: product, marketSite: site, count: 200 };
  const collection = (await client.answer({ kind: 'search', query }, 'req_accuracy')) as ListingCollection;
  const truthById = new Map(searchUrlTruth(buildSearchUrl(config.origins[site], query)).map((row) => [row.itemId, row]));
  const returned = collection.items.flatMap((item) => truthById.get(item.itemId) ?? []);
  return {
    product,
    site,
    returned: collection.items.length,
    unknown: collection.items.length - returned.length,
    counted: collection.stats.counted,
    truth: median(returned.filter(isCleanSingle).map((row) => row.truth.paidPrice)),
    api: collection.stats.unitPrice?.median ?? null,
    naive: median(collection.items.flatMap((item) => (item.price ? [item.price.value] : []))),
  };
}

const error = (value: number | null, truth: number) => (value === null ? Infinity : value / truth - 1);
const percent = (value: number) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)} %` : 'none').padStart(9);

t.test(`the median unit price is within ${WITHIN * 100} % of the true median of clean single sales for at least 90 % of ${SIM_PRODUCTS.length} products; the naive median is clearly worse`, async (t) => {
  const rows: Row[] = [];
  // Each product on one site, the sites in turn: the same method in every language.
  for (const [index, product] of SIM_PRODUCTS.entries()) rows.push(await measure(product, SITES[index % SITES.length]!));
  t.strictSame(rows.filter((row) => row.returned === 0 || row.unknown > 0), [], 'every product returned listings, each one the simulator listed');
  const table = [
    'product                    site           returned counted     true      stats   error      naive   error',
    ...rows.map(
      (row) =>
        `${row.product.padEnd(26)} ${row.site.padEnd(14)} ${String(row.returned).padStart(8)} ${String(row.counted).padStart(7)} ${row.truth.toFixed(2).padStart(8)} ${(row.api?.toFixed(2) ?? 'null').padStart(10)} ${percent(error(row.api, row.truth))} ${row.naive.toFixed(2).padStart(10)} ${percent(error(row.naive, row.truth))}`,
    ),
  ].join('\n');
  const statsWithin = rows.filter((row) => Math.abs(error(row.api, row.truth)) <= WITHIN).length;
  const naiveWithin = rows.filter((row) => Math.abs(error(row.naive, row.truth)) <= WITHIN).length;
  t.comment(`${table}\nwithin ${WITHIN * 100} %: stats ${statsWithin} of ${rows.length}, naive ${naiveWithin} of ${rows.length}`);
  t.ok(statsWithin >= Math.ceil(rows.length * 0.9), `stats within ${WITHIN * 100} % for ${statsWithin} of ${rows.length} (at least 90 %)`);
  t.ok(naiveWithin <= statsWithin / 2, `the naive median within ${WITHIN * 100} % for only ${naiveWithin}`);
});
