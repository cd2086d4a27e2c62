import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compsOfItem } from '@comps/shared/comps/listing-comps';
import { itemDetailsSchema, listingRowSchema, type ListingRow } from '@comps/shared/contract/listing';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { interpretItemAnswer, interpretSearchAnswer } from '@comps/shared/market/interpret-answer';
import { parseHtml } from '@comps/shared/market/parse/dom';
import { isItemNotFoundPage, parseItemPage } from '@comps/shared/market/parse/item-page';
import { loadHtml } from '@comps/shared/market/parse/load-html';
import { PageText } from '@comps/shared/market/parse/page-text';
import { parseSearchDocument } from '@comps/shared/market/parse/search-page';
import { EXPECTED_DIR, FIXTURES_DIR, expectedFiles, readFixture } from '../helpers/fixtures.js';
import { loadedNativeHelper } from '../helpers/native-helper.js';

interface ExpectedSearch {
  file: string;
  site: MarketSite;
  kind: 'search';
  error?: string;
  counts: { rows: number; exact: number; loose: number; sold: number; bestOfferAccepted: number; rowsDropped: number };
  totalResults: number | null;
  hasNextPage: boolean;
  items: { first: ListingRow | null; last: ListingRow | null; loose: ListingRow | null; bestOfferAccepted: ListingRow[] };
}

interface ExpectedItem {
  file: string;
  site: MarketSite;
  kind: 'item';
  item: Record<string, unknown>;
}

// Expected values were established by reading each saved page; a change that alters one fails here.
// The readers the services use (`parseSearchPage`, `readItemPage`, through the interpret functions) must
// give exactly what the whole-tree readers give (`parseSearchDocument`, `parseItemPage` on the page's whole tree),
// from the page's text and from its bytes (the services' way: the parser decodes what it returns) alike,
// the bytes read into text by a copy or, as the services read them, by the native helper (no copy).
const native = loadedNativeHelper(t);
for (const expectedFile of expectedFiles()) {
  const expected = JSON.parse(readFileSync(path.join(EXPECTED_DIR, expectedFile), 'utf8')) as ExpectedSearch | ExpectedItem;
  t.test(expected.file, async (t) => {
    const answer = { status: 200, body: readFixture(expected.file), url: `https://www.${expected.site}/`, retryAfterSeconds: null };
    const bytes = readFileSync(path.join(FIXTURES_DIR, expected.file));
    const bytesAnswer = { ...answer, body: bytes };
    // A page read anew for each use (PageText.of takes a page already read as it is), from a copy of the bytes: the helper's text takes them.
    const helperAnswer = () => (native ? { ...answer, body: PageText.of(Buffer.from(bytes), native.oneByteText) } : bytesAnswer);
    if (expected.kind === 'item') {
      const item = interpretItemAnswer(answer, expected.site, null);
      t.strictSame(item, expected.item);
      t.strictSame(interpretItemAnswer(bytesAnswer, expected.site, null), item, 'from the bytes, the same item');
      t.strictSame(interpretItemAnswer(helperAnswer(), expected.site, null), item, "from the bytes read by the native helper, the same item");
      const $ = loadHtml(answer.body);
      t.notOk(isItemNotFoundPage($));
      t.strictSame(parseItemPage($, expected.site, null), item, 'the whole-tree reader gives the same item');
      const full = { ...item, comps: compsOfItem(item, expected.site), marketSite: expected.site, source: { marketSite: expected.site, fetchedAt: new Date().toISOString(), upstreamMs: 0 }, requestId: 'req_x' };
      t.ok(itemDetailsSchema.safeParse(full).success, 'in the contract shape');
      return;
    }
    if (expected.error) {
      t.throws(() => interpretSearchAnswer(answer, expected.site), { code: expected.error }, `refused as ${expected.error}`);
      t.throws(() => interpretSearchAnswer(bytesAnswer, expected.site), { code: expected.error }, `from the bytes, refused as ${expected.error}`);
      t.throws(() => interpretSearchAnswer(helperAnswer(), expected.site), { code: expected.error }, `from the bytes read by the native helper, refused as ${expected.error}`);
      return;
    }
    const page = interpretSearchAnswer(answer, expected.site);
    t.strictSame(interpretSearchAnswer(bytesAnswer, expected.site), page, 'from the bytes, the same page, every row');
    t.strictSame(interpretSearchAnswer(helperAnswer(), expected.site), page, 'from the bytes read by the native helper, the same page, every row');
    t.strictSame(parseSearchDocument(parseHtml(answer.body), expected.site), { ...page, isResultsPage: true }, 'the whole-tree reader gives the same page, every row');
    const loose = page.items.filter((item) => item.looseMatch);
    t.strictSame(
      {
        rows: page.items.length,
        exact: page.items.length - loose.length,
        loose: loose.length,
        sold: page.items.filter((item) => item.sold).length,
        bestOfferAccepted: page.items.filter((item) => item.bestOfferAccepted).length,
        rowsDropped: page.rowsDropped,
      },
      expected.counts,
      'row counts',
    );
    t.equal(page.totalResults, expected.totalResults, 'total results');
    t.equal(page.hasNextPage, expected.hasNextPage, 'has next page');
    t.strictSame(page.items[0] ?? null, expected.items.first, 'first row');
    t.strictSame(page.items.at(-1) ?? null, expected.items.last, 'last row');
    if (expected.items.loose) {
      t.strictSame(page.items.find((item) => item.itemId === expected.items.loose!.itemId), expected.items.loose, 'a loose row');
    }
    for (const wanted of expected.items.bestOfferAccepted) {
      t.strictSame(page.items.find((item) => item.itemId === wanted.itemId), wanted, `best offer accepted ${wanted.itemId}`);
    }
    t.ok(page.items.every((item) => listingRowSchema.safeParse(item).success), 'every row is a valid listing item');
    t.equal(new Set(page.items.map((item) => item.itemId)).size, page.items.length, 'no row twice');
  });
}
