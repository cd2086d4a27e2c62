import t from 'tap';
import { MARKET_SITES, type MarketSite } from '@comps/shared/contract/market-sites';
import { parseSearchPage } from '@comps/shared/market/parse/search-page';
import { searchTruth, searchUrlTruth, type TruthRow } from '@comps/market-sim/market-truth';
import { LAST_SOLD_DAY, priceLevel, productNamed, searchedProductName, type Product } from '@comps/market-sim/products';
import { renderSearchPage } from '@comps/market-sim/render/search-page';
import { wordsOf } from '@comps/market-sim/search-words';
import { searchRequestOfUrl } from '@comps/market-sim/search-request';
import { searchPage, type SimRow } from '@comps/market-sim/search-results';
import { SIM_PRODUCTS } from '../helpers/sim-products.js';

// The simulator as a market: a keyword names a product, and its search looks like a real one:
// sellers' titles in the site's language, prices around the product's own, and the pollution real
// searches carry, in shares that differ by product. What each listing really is comes from the
// truth module, which no page shows.

const ORIGIN = 'http://127.0.0.1:4010';

interface SearchOptions {
  sold?: boolean;
  page?: number;
  size?: number;
  /** More of the query string: "&_udhi=15". */
  extra?: string;
}

function searchUrl(site: MarketSite, text: string, { sold = true, page = 1, size = 240, extra = '' }: SearchOptions = {}): string {
  return `${ORIGIN}/${site}/sch/i.html?_nkw=${encodeURIComponent(text)}${sold ? '&LH_Sold=1&LH_Complete=1' : ''}&_ipg=${size}&_pgn=${page}${extra}`;
}

/** The rows the simulator lists for the address (the listings themselves, with their dates). */
function rowsAt(url: string): SimRow[] {
  const request = searchRequestOfUrl(url)!;
  return searchPage(request.query, request.directives).rows;
}

/** The exact matches of the first `pages` pages of 240 of a sold search, with their truth (each once: past the end, the last page comes again). */
function soldRows(site: MarketSite, text: string, pages = 1): Array<SimRow & TruthRow> {
  const rows = Array.from({ length: pages }, (_, index) => {
    const url = searchUrl(site, text, { page: index + 1 });
    const truths = searchUrlTruth(url);
    return rowsAt(url).map((row, position) => ({ ...row, ...truths[position]! }));
  }).flat();
  return [...new Map(rows.filter((row) => !row.loose).map((row) => [row.itemId, row])).values()];
}

const isClean = (row: TruthRow) => row.truth.kind === 'single' && row.truth.condition !== 'forParts' && !row.truth.typo;
const daysAgo = (row: SimRow) => Math.round((LAST_SOLD_DAY.getTime() - row.listing.endedOn.getTime()) / 86_400_000);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function hasWord(title: string, word: string): boolean {
  return wordsOf(title).includes(word);
}


t.test('a keyword names the same product on every site and in every request, whatever its word order, -words and directives', async (t) => {
  for (const keyword of ['nintendo switch oled', 'pokemon charizard card', 'desk lamp']) {
    const product = productNamed(searchedProductName(keyword));
    t.strictSame(productNamed(searchedProductName(keyword)), product, `${keyword}: the same product again`);
    const reordered = productNamed(searchedProductName(keyword.split(' ').reverse().join(' ')));
    t.strictSame([reordered.key, reordered.newPrice, reordered.shares], [product.key, product.newPrice, product.shares], `${keyword}: in another order`);
    for (const site of MARKET_SITES) {
      const rows = rowsAt(searchUrl(site, keyword, { size: 60 })).filter((row) => !row.loose);
      t.ok(rows.length > 0 && rows.every((row) => row.listing.product.key === product.key && row.listing.product.newPrice === product.newPrice), `${keyword} on ${site}: its listings are of it`);
    }
    t.strictSame(rowsAt(searchUrl('market.fr', keyword)), rowsAt(searchUrl('market.fr', keyword)), `${keyword}: the same listings in every request`);
  }
  t.equal(searchedProductName('Nintendo  Switch OLED -case -lot'), 'nintendo switch oled', 'named without its -words, in lower case');
  const request = searchRequestOfUrl(searchUrl('market.com', 'nintendo sim:layout=su switch -case oled sim:total=500'))!;
  t.equal(searchedProductName(request.query.keyword), 'nintendo switch oled', 'and without its directives');
  t.ok(rowsAt(searchUrl('market.com', 'nintendo switch oled sim:total=500 sim:layout=item')).every((row) => row.listing.product.name === 'nintendo switch oled'), 'directives name no product');
});

/** What marks, in each language, an accessory, a lot and a broken unit in a title. */
const TITLE_MARKS: Record<string, { accessory: RegExp; lot: RegExp; forParts: RegExp }> = {
  en: { accessory: /\bfor\b|\bbox only\b|\bempty box\b/i, lot: /\blot\b|\b\d+x\b|\bx\d+\b|\bbundle\b|\bset of\b|\bpcs\b/i, forParts: /for parts|not working|broken|spares or repair|\bas is\b|faulty/i },
  de: { accessory: /\bfür\b|\bOVP\b|Leerkarton/i, lot: /Konvolut|\b\d+x\b|\bStück\b|\bPaket\b/i, forParts: /defekt|Bastler/i },
  fr: { accessory: /\bpour\b|boîte vide/i, lot: /\blot\b|\b\d+x\b/i, forParts: /pour pièces|\bHS\b|ne fonctionne pas/i },
  it: { accessory: /\bper\b|scatola/i, lot: /\blotto\b|\b\d+x\b|\bstock\b|\bblocco\b/i, forParts: /per ricambi|non funzionante/i },
  es: { accessory: /\bpara\b|caja vacía|solo caja/i, lot: /\blote\b|\b\d+x\b|\bpack\b/i, forParts: /para piezas|no funciona/i },
};
const SITE_LANGUAGES: Array<[MarketSite, string]> = [['market.com', 'en'], ['market.co.uk', 'en'], ['market.de', 'de'], ['market.fr', 'fr'], ['market.it', 'it'], ['market.es', 'es']];

t.test('titles hold the keyword\'s words and read like sellers\' titles, in the site\'s language', async (t) => {
  for (const [site, language] of SITE_LANGUAGES) {
    const marks = TITLE_MARKS[language]!;
    const rows = ['nintendo switch oled', 'funko pop', 'iphone 13', 'sony wh-1000xm4'].flatMap((keyword) =>
      soldRows(site, keyword).map((row) => ({ ...row, words: wordsOf(keyword) })),
    );
    t.strictSame(rows.filter((row) => !row.words.every((word) => hasWord(row.title, word))).map((row) => row.title), [], `${site}: every title holds every word of the keyword`);
    const accessories = rows.filter((row) => row.truth.kind === 'accessory');
    const lots = rows.filter((row) => row.truth.kind === 'lot');
    const broken = rows.filter((row) => row.truth.condition === 'forParts');
    const clean = rows.filter(isClean);
    t.ok(accessories.length > 0 && lots.length > 0 && broken.length > 0, `${site}: accessories, lots and broken units are among them`);
    t.strictSame(accessories.filter((row) => !marks.accessory.test(row.title)).map((row) => row.title), [], `${site}: accessories say what they are for, in ${language}`);
    t.strictSame(lots.filter((row) => !marks.lot.test(row.title)).map((row) => row.title), [], `${site}: lots say so, in ${language}`);
    t.strictSame(
      lots.filter((row) => row.truth.units !== null && !new RegExp(`(^|\\D)${row.truth.units}(\\D|$)`).test(row.title)).map((row) => row.title),
      [],
      `${site}: a lot that states its size has it in its title`,
    );
    const saying = broken.filter((row) => marks.forParts.test(row.title)).length / broken.length;
    t.ok(saying >= 0.5 && saying < 1, `${site}: broken units often say so in the title (${(saying * 100).toFixed(0)} %)`);
    t.strictSame(clean.filter((row) => marks.forParts.test(row.title) || marks.lot.test(row.title)).map((row) => row.title), [], `${site}: a clean sale reads as neither a lot nor a broken unit`);
    t.ok(new Set(clean.map((row) => row.title)).size > clean.length * 0.8, `${site}: titles vary`);
    t.ok(rows.every((row) => row.title.length <= 80), `${site}: at most 80 characters`);
  }
  const orders = soldRows('market.com', 'nintendo switch oled').map((row) => wordsOf(row.title).filter((word) => ['nintendo', 'switch', 'oled'].includes(word)).join(' '));
  t.ok(new Set(orders).size > 1, `the keyword's words in more than one order: ${[...new Set(orders)].join(', ')}`);
});

/** The condition texts the sites' pages show, per group. */
const CONDITION_TEXTS: Partial<Record<MarketSite, Record<string, string>>> = {
  'market.com': { new: 'Brand New', used: 'Pre-Owned', refurbished: 'Certified - Refurbished', forParts: 'For parts or not working' },
  'market.co.uk': { new: 'Brand new', used: 'Pre-owned', refurbished: 'Refurbished', forParts: 'For parts or not working' },
  'market.de': { new: 'Neu', used: 'Gebraucht', refurbished: 'Vom Verkäufer generalüberholt', forParts: 'Als Ersatzteil / defekt' },
  'market.fr': { new: 'Neuf', used: 'Occasion', refurbished: 'Reconditionné par le vendeur', forParts: 'Pour pièces / ne fonctionne pas' },
  'market.it': { new: 'Nuovo', used: 'Usato', refurbished: 'Ricondizionato dal venditore', forParts: 'Per ricambi o non funzionante' },
  'market.es': { new: 'Nuevo', used: 'De segunda mano', refurbished: 'Reacondicionado por el vendedor', forParts: 'Para piezas o no funciona' },
};

t.test('rows show their condition in the site\'s words, as the parser reads it', async (t) => {
  for (const [site, texts] of Object.entries(CONDITION_TEXTS) as Array<[MarketSite, Record<string, string>]>) {
    const url = searchUrl(site, 'iphone 13');
    const request = searchRequestOfUrl(url)!;
    const page = searchPage(request.query, request.directives);
    const html = renderSearchPage(site, { query: request.query, page, siteBase: `${ORIGIN}/${site}`, origin: ORIGIN, requestUrl: new URL(url) }, null);
    const truths = searchTruth(request);
    const parsed = parseSearchPage(html, site).items;
    t.equal(parsed.length, truths.length, `${site}: every row read`);
    t.strictSame(parsed.map((item) => item.condition), truths.map((row) => texts[row.truth.condition]), `${site}: each row's condition text`);
    t.strictSame(new Set(truths.map((row) => row.truth.condition)), new Set(['new', 'used', 'refurbished', 'forParts']), `${site}: all four conditions among them`);
  }
});

t.test('-word excludes every title with that word, and the product stays the one the other words name', async (t) => {
  for (const [text, word] of [['nintendo switch oled -case', 'case'], ['funko pop -lot', 'lot'], ['iphone 13 -for', 'for'], ['pokemon charizard card -psa', 'psa']] as const) {
    const plain = text.replace(` -${word}`, '');
    t.ok(soldRows('market.com', plain).some((row) => hasWord(row.title, word)), `${plain}: some titles say "${word}"`);
    const rows = soldRows('market.com', text);
    const total = (search: string) => { const request = searchRequestOfUrl(searchUrl('market.com', search))!; return searchPage(request.query, request.directives).totalExact; };
    t.ok(total(text) < total(plain) && total(text) >= total(plain) * 0.7, `${text}: ${total(text)} results, a few fewer than ${total(plain)}`);
    t.equal(rows.length, Math.min(240, total(text)), `${text}: ${rows.length} rows, every one counted`);
    t.strictSame(rows.filter((row) => hasWord(row.title, word)).map((row) => row.title), [], `${text}: none says "${word}"`);
    t.ok(rows.every((row) => row.listing.product.key === productNamed(plain).key), `${text}: listings of ${plain}`);
  }
});

t.test('typos are rare: a price ten times too high or too low, the truth the price paid', async (t) => {
  const rows = SIM_PRODUCTS.slice(0, 12).flatMap((keyword) => soldRows('market.com', keyword));
  const typos = rows.filter((row) => row.truth.typo);
  const share = typos.length / rows.length;
  t.ok(share > 0.005 && share < 0.025, `${typos.length} typos in ${rows.length} listings (${(share * 100).toFixed(1)} %)`);
  t.strictSame(
    typos.filter((row) => Math.abs(row.price - row.truth.paidPrice * 10) > 0.01 && Math.abs(row.price - Math.max(0.01, Math.round(row.truth.paidPrice * 10) / 100)) > 0.01).map((row) => row.title),
    [],
    'each shows ten times, or a tenth of, what was paid',
  );
  t.ok(rows.filter((row) => !row.truth.typo && row.listing.format !== 'bestOfferAccepted').every((row) => row.price === row.truth.paidPrice), 'the others show what was paid, but accepted offers');
});

/** A share seen in `n` listings agrees with the share `p` the product was given: within four standard errors. */
function agrees(seen: number, p: number, n: number): boolean {
  return Math.abs(seen - p) <= 4 * Math.sqrt((p * (1 - p)) / n) + 0.01;
}

t.test('each product\'s searches carry the pollution its shares say, and the shares differ by product', async (t) => {
  const keywords = ['nintendo switch oled', 'sony wh-1000xm4', 'iphone 13', 'pokemon charizard card', 'funko pop', 'lego minifigure', 'leather wallet', 'desk lamp'];
  for (const keyword of keywords) {
    const product = productNamed(keyword);
    const rows = soldRows('market.com', keyword, 2);
    const n = rows.length;
    const share = (test: (row: (typeof rows)[number]) => boolean) => rows.filter(test).length / n;
    const seen = {
      accessory: share((row) => row.truth.kind === 'accessory'),
      lot: share((row) => row.truth.kind === 'lot'),
      forParts: share((row) => row.truth.condition === 'forParts'),
      refurbished: share((row) => row.truth.condition === 'refurbished'),
      bestOfferAccepted: share((row) => row.listing.format === 'bestOfferAccepted'),
      typo: share((row) => row.truth.typo),
    };
    const given = { ...product.shares, typo: product.shares.typo * (1 - product.shares.bestOfferAccepted) };
    const name = `${keyword} (${product.family}, ${n} listings)`;
    for (const [reason, value] of Object.entries(seen) as Array<[keyof typeof seen, number]>) {
      t.ok(agrees(value, given[reason], n), `${name}: ${reason} ${(value * 100).toFixed(1)} % for a share of ${(given[reason] * 100).toFixed(1)} %`);
    }
    const lots = rows.filter((row) => row.truth.kind === 'lot');
    if (lots.length >= 10) {
      const stated = lots.filter((row) => row.truth.units !== null).length / lots.length;
      t.ok(agrees(stated, 0.7, lots.length), `${name}: ${(stated * 100).toFixed(0)} % of lots state their size`);
      const perUnit = lots.filter((row) => row.truth.units !== null).map((row) => row.truth.paidPrice / row.truth.units! / priceLevel(product, row.truth.condition === 'new' ? 'new' : 'used', daysAgo(row)));
      const [low, high] = product.lotDiscount;
      t.ok(perUnit.every((ratio) => ratio > low * Math.exp(-4.5 * product.spread) && ratio < high * Math.exp(4.5 * product.spread)), `${name}: a lot sells for its size times a discounted unit price`);
    }
    const broken = rows.filter((row) => row.truth.condition === 'forParts' && !row.truth.typo);
    t.ok(broken.every((row) => { const ratio = row.truth.paidPrice / priceLevel(product, 'used', daysAgo(row)); return ratio > 0.2 * Math.exp(-4.5 * product.spread) && ratio < 0.5 * Math.exp(4.5 * product.spread); }), `${name}: broken units sell for 20 to 50 % of a used one`);
    t.ok(rows.filter((row) => row.listing.format === 'bestOfferAccepted').every((row) => row.price > row.truth.paidPrice), `${name}: an accepted offer shows the asking price, above what was paid`);
    if (product.family === 'device') {
      const accessories = rows.filter((row) => row.truth.kind === 'accessory' && !row.truth.typo);
      t.ok(median(accessories.map((row) => row.truth.paidPrice)) < product.newPrice * 0.1, `${name}: accessories sell for a small fraction of the product`);
    }
  }
  const accessoryShares = SIM_PRODUCTS.map((keyword) => productNamed(keyword)).filter((product) => product.family === 'device').map((product) => product.shares.accessory);
  t.ok(accessoryShares.filter((share) => share >= 0.15 && share <= 0.35).length >= accessoryShares.length / 2, `devices draw accessory sales: ${accessoryShares.map((share) => share.toFixed(2)).join(', ')}`);
  const lotShares = SIM_PRODUCTS.map((keyword) => productNamed(keyword)).filter((product) => product.family === 'collectible').map((product) => product.shares.lot);
  t.ok(lotShares.every((share) => share >= 0.08), `collectibles draw lots: ${lotShares.map((share) => share.toFixed(2)).join(', ')}`);
});

t.test('clean single sales: prices around the product\'s own, within its spread, new above refurbished above used, with its trend', async (t) => {
  const newPrices = new Set<number>();
  for (const keyword of ['nintendo switch oled', 'iphone 13', 'airpods pro', 'pokemon charizard card', 'vintage pyrex bowl', 'wool sweater']) {
    const product: Product = productNamed(keyword);
    newPrices.add(product.newPrice);
    const clean = soldRows('market.com', keyword, 3).filter(isClean);
    const name = `${keyword} (${clean.length} clean sales, new price ${product.newPrice.toFixed(2)})`;
    const deviations = clean.map((row) => Math.log(row.truth.paidPrice / priceLevel(product, row.truth.condition as 'new' | 'used' | 'refurbished', daysAgo(row))) / product.spread);
    const mean = deviations.reduce((sum, value) => sum + value, 0) / deviations.length;
    const deviation = Math.sqrt(deviations.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (deviations.length - 1));
    t.ok(deviations.every((value) => Math.abs(value) < 4.5), `${name}: every price within 4.5 spreads of its level`);
    t.ok(Math.abs(mean) < 0.25 && deviation > 0.8 && deviation < 1.25, `${name}: log-normal around the level, ${(product.spread * 100).toFixed(1)} % spread (mean ${mean.toFixed(2)}, sd ${deviation.toFixed(2)} spreads)`);
    const byCondition = (condition: string) => clean.filter((row) => row.truth.condition === condition).map((row) => row.truth.paidPrice);
    const [newer, used] = [median(byCondition('new')), median(byCondition('used'))];
    t.ok(used / newer > 0.6 && used / newer < 0.9, `${name}: used at ${(used / newer).toFixed(2)} of new`);
    t.ok(product.usedFactor < product.refurbishedFactor && product.refurbishedFactor < 1, `${name}: refurbished between used and new`);
    // The trend: the slope of the log price (against its condition's level at the last day) over the 90 days.
    const points = clean.map((row) => [daysAgo(row), Math.log(row.truth.paidPrice / priceLevel(product, row.truth.condition as 'new' | 'used' | 'refurbished', 0))] as const);
    const meanDay = points.reduce((sum, [day]) => sum + day, 0) / points.length;
    const meanLog = points.reduce((sum, [, value]) => sum + value, 0) / points.length;
    const spreadOfDays = points.reduce((sum, [day]) => sum + (day - meanDay) ** 2, 0);
    const slope = points.reduce((sum, [day, value]) => sum + (day - meanDay) * (value - meanLog), 0) / spreadOfDays;
    const trend = -slope * 90;
    // The fitted slope's standard error: the price spread over the spread of the sold dates.
    const standardError = (product.spread / Math.sqrt(spreadOfDays)) * 90;
    t.ok(Math.abs(trend - product.trend) < 4 * standardError, `${name}: over 90 days ${(trend * 100).toFixed(1)} % ± ${(standardError * 100).toFixed(1)} for a trend of ${(product.trend * 100).toFixed(1)} %`);
  }
  t.equal(newPrices.size, 6, 'each product its own price');
  const prices = SIM_PRODUCTS.map((keyword) => productNamed(keyword).newPrice);
  t.ok(Math.min(...prices) < 10 && Math.max(...prices) > 1000, `from a few units (${Math.min(...prices).toFixed(2)}) to a couple of thousand (${Math.max(...prices).toFixed(2)})`);
});

t.test('a price window shows only what lies in it: far below a device, its accessories', async (t) => {
  const full = searchPage(searchRequestOfUrl(searchUrl('market.com', 'iphone 13'))!.query, searchRequestOfUrl(searchUrl('market.com', 'iphone 13'))!.directives);
  const url = searchUrl('market.com', 'iphone 13', { extra: '&_udhi=15' });
  const rows = searchUrlTruth(url);
  const request = searchRequestOfUrl(url)!;
  t.ok(rows.length > 0 && rows.every((row) => row.price <= 15), `${rows.length} rows, each at 15 or less`);
  t.strictSame(rows.filter((row) => !(row.truth.kind === 'accessory' || row.truth.typo)).map((row) => row.title), [], 'accessories, or typos');
  t.ok(searchPage(request.query, request.directives).totalExact < full.totalExact / 3, 'and the count says they are few');
});

t.test('naive statistics are wrong: the median of every listed price against the true median of clean single sales', async (t) => {
  const table = SIM_PRODUCTS.map((keyword) => {
    const rows = soldRows('market.com', keyword);
    const naive = median(rows.map((row) => row.price));
    const clean = median(rows.filter(isClean).map((row) => row.truth.paidPrice));
    return { keyword, listings: rows.length, naive, clean, error: naive / clean - 1 };
  });
  t.comment(['product                    listings     naive      true    error', ...table.map((row) => `${row.keyword.padEnd(26)} ${String(row.listings).padStart(8)} ${row.naive.toFixed(2).padStart(9)} ${row.clean.toFixed(2).padStart(9)} ${(row.error * 100).toFixed(1).padStart(7)} %`)].join('\n'));
  const off = table.filter((row) => Math.abs(row.error) > 0.05).length;
  const far = table.filter((row) => Math.abs(row.error) > 0.6).length;
  t.comment(`${table.length - off} of ${table.length} within 5 %, ${off} off by more than 5 %, ${far} by more than 60 %`);
  t.ok(table.length >= 30, `${table.length} products`);
  t.ok(off >= table.length / 2, `the naive median is off by more than 5 % for ${off} of ${table.length}`);
});
