import t from 'tap';
import { AppError } from '@comps/shared/errors/app-error';
import { parseHtml } from '@comps/shared/market/parse/dom';
import { parseSearchDocument, parseSearchPage } from '@comps/shared/market/parse/search-page';
import { interpretSearchAnswer } from '@comps/shared/market/interpret-answer';
import { readFixture } from '../helpers/fixtures.js';

// The su-item-card layout on its real rows; a page whose layout is not recognized is an error; rows
// of an unknown layout inside a known results list are read by their structure.

const SU_ROWS = readFixture('su-item-card-rows.html');

/** The saved rows as the page has them: the heading, the results container, the list, a next-page link. */
function suPage(rows = SU_ROWS): string {
  return `<!DOCTYPE html><html><head><title>super mario 64 n64 | eBay</title></head><body><div class="srp-controls__count"><h1 class="srp-controls__count-heading"><span class="BOLD">1,800+</span> results for <span class="BOLD">super mario 64 n64</span></h1></div><div id="srp-river-results" class="srp-river-results clearfix">${rows}<li class="srp-river-answer srp-river-answer--BASIC_PAGINATION_V2"><nav class="pagination"><a class="pagination__next icon-link" href="https://www.ebay.com.au/sch/i.html?_nkw=super+mario+64+n64&_pgn=2"></a></nav></li></ul></div></body></html>`;
}

const SU_ITEMS = [
  {
    itemId: '407044035289',
    title: "Super Mario 64 (Nintendo 64, Player's Choice, NUS-NSME-USA-2) - VG - CART ONLY",
    url: 'https://www.ebay.com.au/itm/407044035289',
    imageUrl: 'https://i.ebayimg.com/images/g/33kAAeSwuOVqRsGW/s-l500.jpg',
    condition: 'Pre-owned',
    sold: true,
    soldDate: '2026-07-04',
    soldDateText: 'Sold  4 Jul 2026',
    soldDateVerified: false,
    price: { value: 55.98, currency: 'AUD' },
    priceText: 'AU $55.98',
    priceIsDisplayedOnly: false,
    bestOfferAccepted: false,
    buyingFormat: 'buyItNow',
    bidCount: null,
    shipping: { value: 22.16, currency: 'AUD' },
    shippingText: '+AU $22.16 delivery',
    seller: { username: 'linguanostra8', feedbackScore: 749, positivePercent: 99.4 },
    location: 'Canada',
    looseMatch: false,
  },
  {
    itemId: '287122385479',
    title: 'Super Mario 64 RUMBLE VERSION (Nintendo 64 N64) Japanese Import - Tested',
    url: 'https://www.ebay.com.au/itm/287122385479',
    imageUrl: 'https://i.ebayimg.com/images/g/e-UAAeSw245pg9rB/s-l500.jpg',
    condition: 'Pre-owned',
    sold: true,
    soldDate: '2026-07-04',
    soldDateText: 'Sold  4 Jul 2026',
    soldDateVerified: false,
    // The struck AU $30.80 beside it is an accessory of the price, not the sold price.
    price: { value: 18.48, currency: 'AUD' },
    priceText: 'AU $18.48',
    priceIsDisplayedOnly: false,
    bestOfferAccepted: false,
    buyingFormat: 'buyItNow',
    bidCount: null,
    shipping: { value: 19.78, currency: 'AUD' },
    shippingText: '+AU $19.78 delivery',
    seller: { username: 'snarebot_gaming', feedbackScore: 927, positivePercent: 98.1 },
    location: 'Canada',
    looseMatch: false,
  },
  {
    itemId: '135927973996',
    title: 'Super Mario 64 Nintendo 64 N64 PAL Boxed Complete SEE DESCRIPTION',
    url: 'https://www.ebay.com.au/itm/135927973996',
    imageUrl: 'https://i.ebayimg.com/images/g/N14AAeSwSdpoQP27/s-l500.jpg',
    condition: 'New (other)',
    sold: true,
    soldDate: '2026-07-04',
    soldDateText: 'Sold  4 Jul 2026',
    soldDateVerified: false,
    // Struck through: the asking price of an accepted best offer.
    price: { value: 106.04, currency: 'AUD' },
    priceText: 'AU $106.04',
    priceIsDisplayedOnly: true,
    bestOfferAccepted: true,
    buyingFormat: 'buyItNow',
    bidCount: null,
    shipping: { value: 39.53, currency: 'AUD' },
    shippingText: '+AU $39.53 postage estimate',
    seller: { username: 'jakh2825', feedbackScore: 358, positivePercent: 98.4 },
    location: 'United Kingdom',
    looseMatch: false,
  },
];

t.test('the su-item-card rows: every field, by the scan and by the whole tree alike', async (t) => {
  const html = suPage();
  const page = parseSearchPage(html, 'market.com.au');
  t.strictSame(page.items, SU_ITEMS);
  t.strictSame(
    [page.totalResults, page.hasNextPage, page.rowsDropped, page.readStructurally.size, page.unrecognizedLayout, page.isResultsPage],
    [1800, true, 0, 0, null, true],
  );
  t.strictSame(parseSearchDocument(parseHtml(html), 'market.com.au').items, SU_ITEMS, 'the whole tree reads the same');
  t.strictSame(parseSearchPage(Buffer.from(html), 'market.com.au').items, SU_ITEMS, 'and so do the bytes');
});

t.test('hidden placeholder cards of the same markup before the list are not results', async (t) => {
  const placeholder = `<div class="s-clipped" aria-hidden="true"><li class=su-grid__item><div class="su-item-card" data-listingid=2500219655424533><a class="su-item-card__title" href="https://www.ebay.com.au/itm/123456"><span>Shop on eBay</span></a><div class=su-item-card__price-container><span class=su-item-card__price>AU $20.00</span></div></div></li></div>`;
  const outside = `<li class=su-grid__item><div class="su-item-card" data-listingid=999999999999><a class="su-item-card__title" href="https://www.ebay.com.au/itm/999999999999"><span>Outside the list</span></a></div></li>`;
  const html = suPage(`${placeholder}${placeholder}${outside}${SU_ROWS}`);
  t.strictSame(parseSearchPage(html, 'market.com.au').items.map((item) => item.itemId), ['407044035289', '287122385479', '135927973996']);
});

/** A real sold page with every class of a prefix renamed, as a marketplace redesign would. */
function renamed(file: string, names: Array<[string, string]>): string {
  return names.reduce((html, [from, to]) => html.replaceAll(from, to), readFixture(file));
}

const REAL_PAGE = 'sold_us_scard_vw_beetle.html';

t.test('a real sold page whose rows and results list are renamed: an error naming the row classes, never an empty success', async (t) => {
  const html = renamed(REAL_PAGE, [
    ['s-card', 'q-tile'],
    ['srp-results', 'q-results'],
    ['srp-river-results', 'q-river-results'],
  ]);
  const page = parseSearchPage(html, 'market.com');
  t.strictSame([page.items.length, page.totalResults], [0, 242]);
  t.strictSame(page.unrecognizedLayout, { rowClasses: 'q-tile q-tile--horizontal' });
  const recorded: Array<[string, string | null]> = [];
  t.throws(
    () => interpretSearchAnswer({ status: 200, body: html, url: 'https://www.ebay.com/sch/i.html', retryAfterSeconds: null }, 'market.com', { record: (site, classes) => recorded.push([site, classes]) }),
    new AppError('upstream_error', "the marketplace's page layout was not recognized"),
  );
  t.strictSame(recorded, [['market.com', 'q-tile q-tile--horizontal']], 'told once, with the site and the classes');
});

t.test('a page whose heading counts results but shows no row at all is an error too', async (t) => {
  const html = `<html><body><div id="mainContent" class="srp-main-content"><h1 class="srp-controls__count-heading"><span class="BOLD">35</span> results</h1><div class="srp-river-results"><ul class="srp-results"></ul></div></div></body></html>`;
  t.strictSame(parseSearchPage(html, 'market.com').unrecognizedLayout, { rowClasses: null });
  const empty = html.replace('<span class="BOLD">35</span>', '<span class="BOLD">0</span>');
  t.equal(parseSearchPage(empty, 'market.com').unrecognizedLayout, null, 'with 0 results it is an empty page');
});

t.test('every saved results page is read by its own layout: nothing by structure, no layout unrecognized', async (t) => {
  const pages = readFixture('INDEX.tsv')
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((columns) => /-search$/.test(columns[5] ?? ''))
    .map((columns) => columns[0]!);
  t.equal(pages.length, 16);
  for (const file of pages) {
    const page = parseSearchPage(readFixture(file), 'market.com');
    t.strictSame([page.readStructurally.size, page.unrecognizedLayout], [0, null], file);
  }
  const empty = parseSearchPage(readFixture('sold_us_scard_zero_results_bmw_x5.html'), 'market.com');
  t.strictSame([empty.items.length, empty.totalResults], [0, 0], 'links only in answers and placeholders: an empty page, not an error');
});

t.test('rows of an unknown layout in the known results list: read by their structure', async (t) => {
  const original = parseSearchPage(readFixture(REAL_PAGE), 'market.com');
  const essentials = (items: typeof original.items) =>
    items.map(({ itemId, title, url, price, priceText, sold, soldDate, bestOfferAccepted, shipping, buyingFormat, bidCount, looseMatch }) => ({
      itemId, title, url, price, priceText, sold, soldDate, bestOfferAccepted, shipping, buyingFormat, bidCount, looseMatch,
    }));
  for (const [label, names] of [
    ['the row and its fields renamed', [['s-card', 'q-tile']]],
    ['only the fields renamed', [['s-card__', 'q-tile__']]],
  ] as Array<[string, Array<[string, string]>]>) {
    const page = parseSearchPage(renamed(REAL_PAGE, names), 'market.com');
    t.equal(page.items.length, 60, `${label}: every row read`);
    t.strictSame(essentials(page.items), essentials(original.items), `${label}: the same listings, titles, prices, dates and formats`);
    t.strictSame([page.readStructurally.size, page.rowsDropped, page.unrecognizedLayout], [60, 0, null], `${label}: each marked as read by structure`);
  }
});

t.test('more than half of the linked rows unread is an error; fewer is a page with rows dropped', async (t) => {
  const row = (id: number, title: string) =>
    `<li class="s-card" data-listingid="${id}"><a class="s-card__link" href="https://www.ebay.com/itm/${id}"><div class="s-card__title">${title}</div></a><div class="su-card-container__attributes__primary"><div class="s-card__attribute-row"><span class="s-card__price">$5.00</span></div></div></li>`;
  const page = (rows: string[]) => `<html><body><div class="srp-river-results"><ul class="srp-results">${rows.join('')}</ul></div></body></html>`;
  const ids = [100000000001, 100000000002, 100000000003, 100000000004];
  // A row with a link and nothing else to read: neither its reader nor its structure gives a title.
  const unreadable = (id: number) => `<li class="s-card" data-listingid="${id}"><a href="https://www.ebay.com/itm/${id}"></a></li>`;
  const fewer = parseSearchPage(page([row(ids[0]!, 'Lamp'), row(ids[1]!, 'Lamp'), unreadable(ids[2]!)]), 'market.com');
  t.strictSame([fewer.items.length, fewer.rowsDropped, fewer.unrecognizedLayout], [2, 1, null]);
  const half = parseSearchPage(page([row(ids[0]!, 'Lamp'), unreadable(ids[1]!)]), 'market.com');
  t.strictSame([half.items.length, half.unrecognizedLayout], [1, null], 'half is not more than half');
  const most = parseSearchPage(page([row(ids[0]!, 'Lamp'), unreadable(ids[1]!), unreadable(ids[2]!)]), 'market.com');
  t.strictSame(most.unrecognizedLayout, { rowClasses: 's-card' });
});

/** A results page of the given rows, with a heading that counts them. */
function listPage(rows: string[]): string {
  return `<html><body><div id="mainContent" class="srp-main-content"><h1 class="srp-controls__count-heading"><span class="BOLD">${rows.length}</span> results</h1><div class="srp-river-results"><ul class="srp-results">${rows.join('')}</ul></div></div></body></html>`;
}

const cardRow = (id: number, title: string, price: string, priceClass = 's-card__price') =>
  `<li class="s-card" data-listingid="${id}"><a class="s-card__link" href="https://www.ebay.com/itm/${id}"><div class="s-card__title"><span>${title}</span></div></a><div class="s-card__caption"><span>Sold  Mar 7, 2026</span></div><div class="su-card-container__attributes__primary"><div class="s-card__attribute-row"><span class="${priceClass}">${price}</span></div></div></li>`;
const tileRow = (id: number, title: string, price: string) =>
  `<li class="x-tile"><a href="https://www.ebay.com/itm/${id}"><span>${title}</span></a><span class="x-tile__when">Sold  Mar 8, 2026</span><span class="x-tile__price">${price}</span><span>+$4.00 delivery</span></li>`;

t.test('rows of an unknown layout among known ones are read by structure too, never dropped unseen', async (t) => {
  const html = listPage([cardRow(100000000001, 'Desk lamp', '$20.00'), tileRow(100000000002, 'Floor lamp', '$35.00'), tileRow(100000000003, 'Wall lamp', '$12.50')]);
  for (const page of [parseSearchPage(html, 'market.com'), parseSearchDocument(parseHtml(html), 'market.com')]) {
    t.strictSame(
      page.items.map((item) => [item.itemId, item.title, item.price?.value, item.soldDate, item.shipping?.value ?? null]),
      [
        ['100000000001', 'Desk lamp', 20, '2026-03-07', null],
        ['100000000002', 'Floor lamp', 35, '2026-03-08', 4],
        ['100000000003', 'Wall lamp', 12.5, '2026-03-08', 4],
      ],
    );
    t.strictSame([page.readStructurally.size, page.rowsDropped, page.unrecognizedLayout], [2, 0, null]);
  }
});

t.test('a known row whose link, or whose price, lost its class is read by structure', async (t) => {
  const itemRow = (id: number, linkClass: string) =>
    `<li class="s-item"><a class="${linkClass}" href="https://www.ebay.com/itm/${id}"><div class="s-item__title"><span>Lamp ${id}</span></div></a><div class="s-item__details"><div class="s-item__detail"><span class="s-item__price">$9.00</span></div></div></li>`;
  const moved = parseSearchPage(listPage([itemRow(100000000001, 's-item__link'), itemRow(100000000002, 'x-item__link')]), 'market.com');
  t.strictSame(moved.items.map((item) => [item.itemId, item.price?.value]), [['100000000001', 9], ['100000000002', 9]], 'the row whose link class moved is found by its link');
  t.equal(moved.readStructurally.size, 1);

  const priceMoved = parseSearchPage(listPage([cardRow(100000000001, 'Desk lamp', '$20.00', 'x-card__amount'), cardRow(100000000002, 'Desk lamp', '$21.00', 'x-card__amount')]), 'market.com');
  t.strictSame(priceMoved.items.map((item) => item.price?.value), [20, 21], 'a price whose class moved is still read, never a row without a price');
  t.equal(priceMoved.readStructurally.size, 2);
});

t.test('the su-item-card sold label is the recent signal, whatever signal stands before it', async (t) => {
  const rows = SU_ROWS.replace('<span class="signal signal--recent">Sold  4 Jul 2026</span>', '<span class="signal signal--hot">Last one</span><span class="signal signal--recent">Sold  4 Jul 2026</span>');
  const page = parseSearchPage(suPage(rows), 'market.com.au');
  t.strictSame(page.items.map((item) => [item.sold, item.soldDate]), [[true, '2026-07-04'], [true, '2026-07-04'], [true, '2026-07-04']]);
});
