import { createHash } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Element } from 'domhandler';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { ListingRow } from '@comps/shared/contract/listing';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { parseSearchPage } from '@comps/shared/market/parse/search-page';
import { parseDirectives, RESULT_LAYOUTS, type ResultLayout } from '@comps/market-sim/directives';
import { PageFurniture } from '@comps/market-sim/render/page-furniture';
import { renderSearchPage } from '@comps/market-sim/render/search-page';
import { searchPage, type SimPage, type SimQuery } from '@comps/market-sim/search-results';
import { startSimulator } from '../helpers/simulator.js';

const ORIGIN = 'http://127.0.0.1:4010';
const FURNITURE = new PageFurniture();
const STYLES = ['lean', 'full'] as const;
type Style = (typeof STYLES)[number];

interface Case {
  name: string;
  site: MarketSite;
  /** The search text, directives included (the layout's is added per render). */
  text: string;
  sold: boolean;
  page?: number;
}

const CASES: Case[] = [
  { name: 'market.com, sold', site: 'market.com', text: 'sony headphones', sold: true },
  { name: 'market.com, active (ranges, auctions, new listings)', site: 'market.com', text: 'vintage camera', sold: false },
  { name: 'market.com, sold, exact then loose matches', site: 'market.com', text: 'rare blue ceramic teapot', sold: true },
  { name: 'market.com, sold, the last page', site: 'market.com', text: 'widget sim:total=130', sold: true, page: 3 },
  { name: 'market.de, sold', site: 'market.de', text: 'lego', sold: true },
  { name: 'market.de, active', site: 'market.de', text: 'lego', sold: false },
  { name: 'market.com.au, sold', site: 'market.com.au', text: 'super mario 64 n64', sold: true },
  { name: 'market.com.au, active', site: 'market.com.au', text: 'nintendo', sold: false },
];

/** sha256 of each case's `card` page (lean, full), taken from the simulator before it had layouts. */
const CARD_PAGE_HASHES: Record<string, Record<Style, string>> = {
  'market.com, sold': {
    lean: '3518f80f6e8675e39df87461d31bd774c052ddbf5a94bb33196134ed64e26935',
    full: '2567bcdb22e719e1287cbac0659c11d9b3bd818a34dbda79d0082791df01e72d',
  },
  'market.com, active (ranges, auctions, new listings)': {
    lean: 'adb7beda533547117dd5276328968d260637570587284433849c3591e12cf0fc',
    full: 'd3efbefa12b8735fd45a2ead1d399133954c839ec14a0ced0e6cd88ce880f3b9',
  },
  'market.com, sold, exact then loose matches': {
    lean: '92b9604d08421ed6be853eff8d13cd35e2685c68654e8da4b72defccab76cca3',
    full: '6907966b68114e0e773595e4f072dc9da6a6bb482f7a342c944b699f98adcb02',
  },
  'market.com, sold, the last page': {
    lean: '06893e84859a7f48f2ed6cd87fb62ae32080229d272d4acf0f84d9c531f1a3d8',
    full: '86483d8ef6cb05d52356c66bb85f63770c41d50af39775bf96d1fff7c5af9896',
  },
  'market.de, sold': {
    lean: '6190d99193cc0dd852f2efa19265cfbdc3520453195cbe2e977f6f1475b54d4c',
    full: 'fdd45e7180f711088ab5b4ec6364e5090b026cf5763f5f5c37ce94cbe9042802',
  },
  'market.de, active': {
    lean: '120415797ffbe1b94c7c72ec04ec9d9d32d87a52c9839978f5e7d467e7077e5f',
    full: '3142b3e39f6629715fa6abdf5f03cea5190a6ea6be62b57b111c623aa1a55379',
  },
  'market.com.au, sold': {
    lean: '406d37e68ffc47d548aa157fbad5d5a18f2cd71b7b772e0609b4eecd44702995',
    full: 'f3cfa10ee2dd70de361b2e8426d69658b2f7551842f7679eb25fe0c56025767c',
  },
  'market.com.au, active': {
    lean: '5fa87a392acacc91d7e3ae168597dfafcab9529610a8acf6d18cbd7072bf2cdc',
    full: '9e655f06256940fbf557ca0b844480f33776f401da8f9ca41f32d65f2daf9fb2',
  },
};

/** The search text asking for `layout`; `card` is asked for by saying nothing, as every page was before layouts. */
function searchText(test: Case, layout: ResultLayout): string {
  return layout === 'card' ? test.text : `${test.text} sim:layout=${layout}`;
}

/** Renders the page the simulator serves for the search text, in process, as its app does. */
function render(test: Case, layout: ResultLayout, style: Style): { page: SimPage; html: string } {
  const text = searchText(test, layout);
  const { keyword, directives } = parseDirectives(text);
  const pageNumber = test.page ?? 1;
  const query: SimQuery = { site: test.site, keyword, categoryId: '0', page: pageNumber, pageSize: 60, sold: test.sold, condition: 'any', format: 'all', minPrice: null, maxPrice: null, sortOrder: '12' };
  const page = searchPage(query, directives);
  const requestUrl = new URL(`${ORIGIN}/${test.site}/sch/i.html?_nkw=${encodeURIComponent(text)}&_pgn=${pageNumber}&_ipg=60${test.sold ? '&LH_Sold=1&LH_Complete=1' : ''}`);
  const context = { query, page, siteBase: `${ORIGIN}/${test.site}`, origin: ORIGIN, requestUrl, layout: directives.layout };
  return { page, html: renderSearchPage(test.site, context, style === 'full' ? FURNITURE : null) };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * What a row says that every layout shows alike. The seller's feedback score is left out: cards
 * show it rounded ("1.2K"), the older rows exactly ("1,234"); each is checked on its own.
 */
function comparable(item: ListingRow) {
  const { seller, soldDateVerified: _, ...rest } = item;
  return { ...rest, seller: seller && { username: seller.username, positivePercent: seller.positivePercent } };
}

/** The comparison of a layout's page with the card page of the same search, as the parser reads both. */
function compareWithCard(t: Test, test: Case, layout: ResultLayout, style: Style): void {
  const card = render(test, 'card', style);
  const other = render(test, layout, style);
  t.strictSame(other.page.rows, card.page.rows, 'the same rows were rendered');
  const fromCard = parseSearchPage(card.html, test.site);
  const fromOther = parseSearchPage(other.html, test.site);
  t.equal(fromCard.items.length, card.page.rows.length, 'the card page gives every row');
  t.equal(fromOther.items.length, fromCard.items.length, 'as many items as from the card page');
  t.equal(fromOther.rowsDropped, 0, 'no row dropped');
  t.equal(fromOther.totalResults, fromCard.totalResults, 'the same total');
  t.equal(fromOther.hasNextPage, fromCard.hasNextPage, 'the same next page');
  t.strictSame(fromOther.items.map(comparable), fromCard.items.map(comparable), 'the same items, field by field');
}

t.test('the layout directive: sim:layout=NAME, removed from the keyword; an unknown name stays a word', async (t) => {
  t.equal(parseDirectives('sony headphones').directives.layout, 'card', 'card when none is asked for');
  for (const layout of RESULT_LAYOUTS) {
    t.strictSame(
      (({ keyword, directives }) => [keyword, directives.layout])(parseDirectives(`sony sim:layout=${layout} headphones`)),
      ['sony headphones', layout],
      `sim:layout=${layout}`,
    );
  }
  t.equal(parseDirectives('sony sim:Layout=ITEM').directives.layout, 'item', 'case does not matter, as for the other directives');
  t.strictSame(
    (({ keyword, directives }) => [keyword, directives.layout])(parseDirectives('sony sim:layout=grid sim:layout')),
    ['sony sim:layout=grid sim:layout', 'card'],
    'an unknown layout, or none, is a word of the keyword',
  );
  const { keyword, directives } = parseDirectives('lamp sim:total=5 sim:layout=su sim:loose=3 sim:slow=20 sim:empty sim:block sim:signin sim:throttle sim:error');
  t.equal(keyword, 'lamp', 'every directive removed');
  t.strictSame(directives, { block: true, signIn: true, throttle: true, error: true, slowMs: 20, empty: true, total: 5, loose: 3, layout: 'su' }, 'every directive read beside the layout');
});

t.test('card pages are byte for byte what the simulator served before it had layouts', async (t) => {
  for (const test of CASES) {
    for (const style of STYLES) t.equal(sha256(render(test, 'card', style).html), CARD_PAGE_HASHES[test.name]![style], `${test.name}, ${style}`);
  }
});

t.test('the cases render what the comparisons are about', async (t) => {
  const rows = CASES.flatMap((test) => render(test, 'card', 'lean').page.rows.map((row) => ({ ...row, sold: test.sold })));
  t.ok(rows.some((row) => row.listing.format === 'bestOfferAccepted'), 'accepted best offers');
  t.ok(rows.some((row) => row.listing.format === 'auction'), 'auctions');
  t.ok(rows.some((row) => row.listing.format === 'bestOffer'), 'best offers');
  t.ok(rows.some((row) => row.listing.priceHigh !== null), 'price ranges');
  t.ok(rows.some((row) => row.listing.wasPrice !== null), 'was-prices');
  t.ok(rows.some((row) => row.listing.shipping === 0) && rows.some((row) => row.listing.shipping === null), 'free and unknown shipping');
  t.ok(rows.some((row) => row.listing.abroad !== null), 'listings from abroad');
  t.ok(rows.some((row) => row.loose), 'loose matches');
  t.ok(rows.some((row) => !row.sold && Number(row.listing.itemId[9]) === 7), 'new listings');
});

for (const style of STYLES) {
  t.test(`${style} item pages: the parser reads the items it reads from the card pages`, async (t) => {
    for (const test of CASES) {
      t.test(test.name, async (t) => {
        compareWithCard(t, test, 'item', style);
        const { page, html } = render(test, 'item', style);
        t.strictSame(
          parseSearchPage(html, test.site).items.map((item) => item.seller?.feedbackScore),
          page.rows.map((row) => row.listing.seller.score),
          'the sellers\' exact feedback scores',
        );
      });
    }
  });

  t.test(`${style} su pages: the parser reads the items it reads from the card pages`, async (t) => {
    for (const test of CASES) {
      t.test(test.name, async (t) => compareWithCard(t, test, 'su', style));
    }
  });
}

function classesOf(element: Element): string[] {
  return (element.attribs.class ?? '').split(/\s+/).filter(Boolean);
}

function byClass(root: Element | Element[], name: string): Element[] {
  return DomUtils.findAll((element) => classesOf(element).includes(name), Array.isArray(root) ? root : [root]);
}

t.test('su pages: the list, its rows and their parts where the saved page has them', async (t) => {
  for (const test of CASES) {
    for (const style of STYLES) {
      const { page, html } = render(test, 'su', style);
      const document = parseDocument(html).children as Element[];
      const name = `${test.name}, ${style}`;
      const [container] = byClass(document, 'srp-river-results');
      const lists = DomUtils.findAll((element) => element.name === 'ul' && classesOf(element).includes('su-grid'), document);
      t.equal(lists.length, 1, `${name}: one ul.su-grid`);
      const list = lists[0]!;
      t.equal(list.parent, container, `${name}: inside div.srp-river-results`);
      t.equal(byClass(document, 'srp-results').length, 0, `${name}: no srp-results list`);
      const placeholders = byClass(container!, 's-clipped');
      t.strictSame(
        placeholders.map((element) => [element.parent === container, DomUtils.textContent(byClass(element, 'su-item-card__title')[0]!)]),
        [[true, 'Shop on eBay'], [true, 'Shop on eBay']],
        `${name}: two hidden placeholders in the container, before the list`,
      );
      const cards = byClass(list, 'su-item-card');
      t.strictSame(cards.map((card) => card.attribs['data-listingid']), page.rows.map((row) => row.listing.itemId), `${name}: a card per row, its listing id on it`);
      t.ok(cards.every((card) => { const item = card.parent as Element | null; return item?.name === 'li' && classesOf(item).includes('su-grid__item'); }), `${name}: each in li.su-grid__item`);
      t.equal(byClass(list, 'signal--recent').length, test.sold ? page.rows.length : 0, `${name}: the sold label on sold pages only`);
      t.equal(byClass(list, 'su-item-card__price-container').length, page.rows.length, `${name}: a price container per card`);
      t.equal(byClass(list, 'su-program-badge').length, page.rows.length, `${name}: a seller per card`);
      const answers = byClass(list, 'srp-river-answer').map((answer) => answer.parent === list);
      t.strictSame(answers, page.rows.some((row) => row.loose) ? [true, true] : [true], `${name}: the divider and the pagination inside the list`);
      t.equal(list.attribs.style, `--total-items:${list.children.length}`, `${name}: the list counts its entries`);
    }
  }
});

/** Every class name in the river (placeholders, container, list, rows). */
function riverClasses(html: string): string[] {
  const [river] = byClass(parseDocument(html).children as Element[], 'srp-river');
  return DomUtils.findAll(() => true, [river!]).flatMap(classesOf);
}

t.test('tiles and unknown pages: cards under names no parser knows, and for unknown a list and container too', async (t) => {
  for (const test of CASES.slice(0, 3)) {
    for (const style of STYLES) {
      for (const layout of ['tiles', 'unknown'] as const) {
        const { page, html } = render(test, layout, style);
        const name = `${test.name}, ${layout}, ${style}`;
        const classes = riverClasses(html);
        const document = parseDocument(html).children as Element[];
        t.equal(classes.filter((value) => value.startsWith('s-card')).length, 0, `${name}: no s-card class left in the river`);
        for (const part of ['q-tile__title', 'q-tile__price', 'q-tile__attribute-row', 'q-tile__image', 'q-tile__link']) {
          t.ok(classes.includes(part), `${name}: ${part}`);
        }
        t.equal(classes.includes('q-tile__caption'), test.sold, `${name}: the sold caption on sold pages`);
        const tiles = DomUtils.findAll((element) => element.name === 'li' && classesOf(element).includes('q-tile'), document);
        t.equal(tiles.length, page.rows.length + 2, `${name}: a tile per row, and the two placeholders`);
        const [list, container] = layout === 'tiles' ? ['srp-results', 'srp-river-results'] : ['q-results', 'q-river-results'];
        t.equal(byClass(document, list).filter((element) => element.name === 'ul').length, 1, `${name}: ul.${list}`);
        t.equal(byClass(document, container)[0]?.attribs.id, container, `${name}: #${container}.${container}`);
        if (layout === 'unknown') {
          t.equal(byClass(document, 'srp-results').length + byClass(document, 'srp-river-results').length, 0, `${name}: no srp-results, no srp-river-results`);
          t.equal(DomUtils.getElementById('srp-river-results', document), null, `${name}: no #srp-river-results`);
        }
        t.equal(byClass(document, 'srp-controls__count-heading').length, 1, `${name}: the count heading`);
        if (style === 'full') t.ok(DomUtils.getElementById('mainContent', document), `${name}: #mainContent`);
      }
    }
  }
});

t.test('served: the layout follows the directive, the next page keeps it, the keyword shows without it', async (t) => {
  const simUrl = await startSimulator(t, { MARKET_SIM_PAGE_STYLE: 'lean' });
  const fetchPage = async (text: string) => (await fetch(`${simUrl}/market.com.au/sch/i.html?_nkw=${encodeURIComponent(text)}&LH_Sold=1&LH_Complete=1`)).text();
  const card = await fetchPage('super mario');
  const item = await fetchPage('super mario sim:layout=item');
  const su = await fetchPage('super mario sim:layout=su');
  t.match(card, /<li class="s-card /, 'card by default');
  t.match(item, /<li class="s-item /, 'item rows');
  t.match(su, /<ul class="su-grid su-grid--is-list" data-su-grid /, 'the su list');
  t.strictSame(
    parseSearchPage(item, 'market.com.au').items.map((entry) => entry.itemId),
    parseSearchPage(card, 'market.com.au').items.map((entry) => entry.itemId),
    'item and card pages list the same rows',
  );
  for (const [name, html] of [['item', item], ['su', su]] as const) {
    const heading = DomUtils.textContent(byClass(parseDocument(html).children as Element[], 'srp-controls__count-heading')[0]!);
    t.match(heading, /results for super mario$/, `${name}: the heading's keyword has no directive`);
    const next = /class="pagination__next[^"]*"/.test(html) ? /<a href="([^"]+)" type="next"/.exec(html)?.[1] : undefined;
    t.match(next?.replaceAll('&amp;', '&'), /_nkw=super\+mario\+sim%3Alayout%3D/, `${name}: the next page asks for the same layout`);
  }
});
