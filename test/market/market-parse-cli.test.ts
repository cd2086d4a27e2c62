import t from 'tap';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';
import { withoutTapHooks } from '../helpers/without-tap-hooks.js';
import { errorBodySchema } from '@comps/shared/contract/error-body';
import { itemDetailsSchema, listingCollectionSchema } from '@comps/shared/contract/listing';
import { FIXTURES_DIR } from '../helpers/fixtures.js';

function marketParse(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(...withoutTapHooks(process.execPath, [path.join(ROOT_DIR, 'scripts', 'dist', 'market-parse.js'), ...args]), { maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const fixture = (file: string) => path.join(FIXTURES_DIR, file);

t.test('a sold results page prints the listing collection', async (t) => {
  const result = await marketParse([fixture('sold_us_scard_vw_beetle.html')]);
  t.equal(result.code, 0, result.stderr);
  const collection = listingCollectionSchema.parse(JSON.parse(result.stdout));
  t.equal(collection.items.length, 60);
  t.equal(collection.dataQuality.bestOfferAccepted, 11);
  t.equal(collection.pagination.totalResults, 242);
  t.equal(collection.query.sold, true, 'sold, since the page has sold rows');
});

t.test('--count, --exact-match and --sold shape the collection', async (t) => {
  const collection = async (args: string[]) => listingCollectionSchema.parse(JSON.parse((await marketParse(args)).stdout));
  const [few, loose, exact, ended, all, german] = await Promise.all([
    collection([fixture('sold_us_scard_vw_beetle.html'), '--count', '5']),
    collection([fixture('sold_us_scard_jetta_fewer_words.html'), '--exact-match', 'false']),
    collection([fixture('sold_us_scard_jetta_fewer_words.html')]),
    collection([fixture('completed_us_scard_champion_sold_ended.html'), '--sold', 'true']),
    collection([fixture('completed_us_scard_champion_sold_ended.html'), '--sold', 'false']),
    collection([fixture('active_de_scard_lego.html'), '--site', 'market.de']),
  ]);
  t.equal(few.items.length, 5);
  t.strictSame([loose.items.length, loose.items.filter((item) => item.looseMatch).length, loose.dataQuality.looseMatchesExcluded], [60, 59, 0]);
  t.strictSame([exact.items.length, exact.dataQuality.looseMatchesExcluded], [1, 59]);
  t.strictSame([ended.items.length, ended.dataQuality.rowsDropped], [56, 4], 'the four ended rows have no sold marker');
  t.equal(all.items.length, 60);
  t.strictSame([german.items[0]?.price?.currency, german.query.marketSite, german.query.sold], ['EUR', 'market.de', false]);
});

t.test('an item page prints the item details', async (t) => {
  const result = await marketParse([fixture('item_de_lego_7075.html'), '--site', 'market.de']);
  t.equal(result.code, 0);
  const item = itemDetailsSchema.parse(JSON.parse(result.stdout));
  t.strictSame([item.itemId, item.price?.value, item.marketSite], ['198187151691', 164, 'market.de']);
});

t.test('a blocked or wrong page prints the contract error and still exits 0', async (t) => {
  const blocked = await marketParse([fixture('challenge_pardon_our_interruption.html')]);
  t.equal(blocked.code, 0);
  t.equal(errorBodySchema.parse(JSON.parse(blocked.stdout)).code, 'upstream_blocked');
  const wrongKind = await marketParse([fixture('sold_us_scard_vw_beetle.html'), '--kind', 'item']);
  t.equal(wrongKind.code, 0);
  t.equal(errorBodySchema.parse(JSON.parse(wrongKind.stdout)).code, 'upstream_error');
  const notResults = await marketParse([fixture('item_us_rtx5090.html'), '--kind', 'search']);
  t.equal(errorBodySchema.parse(JSON.parse(notResults.stdout)).code, 'upstream_error');
});

t.test('bad arguments or an unreadable file exit non-zero with a message', async (t) => {
  const cases = [
    [],
    [fixture('sold_us_scard_vw_beetle.html'), 'extra.html'],
    [fixture('sold_us_scard_vw_beetle.html'), '--site', 'market.xx'],
    [fixture('sold_us_scard_vw_beetle.html'), '--kind', 'list'],
    [fixture('sold_us_scard_vw_beetle.html'), '--sold', 'yes'],
    [fixture('sold_us_scard_vw_beetle.html'), '--exact-match', '1'],
    [fixture('sold_us_scard_vw_beetle.html'), '--count', '0'],
    [fixture('sold_us_scard_vw_beetle.html'), '--count', '201'],
    [fixture('sold_us_scard_vw_beetle.html'), '--count', '1.5'],
    [fixture('sold_us_scard_vw_beetle.html'), '--colour', 'red'],
  ];
  // Side by side (each is a process of its own, mostly starting up), checked in order.
  const results = await Promise.all(cases.map((args) => marketParse(args)));
  for (const [index, args] of cases.entries()) {
    const result = results[index]!;
    t.equal(result.code, 2, `${args.slice(1).join(' ') || '(no file)'} exits 2`);
    t.match(result.stderr, /usage: npm run --silent market:parse/);
    t.equal(result.stdout, '');
  }
  const missing = await marketParse(['/nonexistent/page.html']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /cannot read/);
});
