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

/**
 * sha256 of each case's `card` page (lean, full): taken from the simulator before it had layouts, and
 * taken again when its listings became a market's (titles and prices of each keyword's product), the
 * layouts changing nothing of them.
 */
const CARD_PAGE_HASHES: Record<string, Record<Style, string>> = {
  'market.com, sold': {
    lean: '7b8980401a90712093080997dcb78420347f5665c59dd6c90592513ee90fdeb6',
    full: '2b98da31a784ace2d62df92238ef0dab9c15fdc7c2e84885e75d9c2b51384e5a',
  },
  'market.com, active (ranges, auctions, new listings)': {
    lean: 'e9d401c170bc579c8774dc1b4572e39dfc22d0cbceeb0a8f214b3ab8a436e254',
    full: '6905c68e941b6780edef248977dc7f0fff751d22c5a1a0a19cc4cc8b3fa8eae4',
  },
  'market.com, sold, exact then loose matches': {
    lean: '77d4db6ffb553820b3fd05127d6a260f1067c3ca49bcc35daf39799cbe7fee2e',
    full: '5563db5a5e6891ec3099da1ffef278d9221c9ea8c0767a1fc9f2c7003b634f0e',
  },
  'market.com, sold, the last page': {
    lean: 'ab79829e644720c643a6c1af1ad93dd93f81645628a931435f0dd8fdf5a00286',
    full: '007cbbd9d47582cba4620b8de6ce6990074b3c67b34414f1949ec655135adb79',
  },
  'market.de, sold': {
    lean: '5128b1fe04f60e247b863a6f9d9bc0d62433c5f57bb519d1827b2b75ddc55cd4',
    full: '69014b6c53dcaf5d0ac176433162f3d29220b01ccde640943f2e22826661e951',
  },
  'market.de, active': {
    lean: '82e6a34aa67ae16ac209267d578331db156b9a093bef85250e74fb6dc4d4a72e',
    full: 'cf5e917263e1b5b9051127ab23828ec7732b9fc9d2f23f58c260fa41313130ed',
  },
  'market.com.au, sold': {
    lean: 'cc709f5562b0f31fa3a34a6c316669549e6955b0c41b48b533766123a5bb75b1',
    full: 'e8a39f3510d1a2b12e8266386519d93448242f5dc2a442da73895f467f534fa5',
  },
  'market.com.au, active': {
    lean: '83e1daa3f6df032058d4bd106adb3afc4364cf1749edf5f082d1d1a83ccaa283',
    full: '257b7a224e3755eaf13946bc9559da83242599698c78d43ffb53601225c7ec2a',
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

t.test('card pages are byte for byte as recorded: the layouts changed nothing of them', async (t) => {
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
