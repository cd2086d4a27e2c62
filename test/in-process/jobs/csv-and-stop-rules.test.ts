import t from 'tap';
import type { JobItem } from '@comps/shared/contract/job';
import { CSV_COLUMNS, CSV_HEADER, csvField, csvRow } from '@comps/shared/contract/job-csv';
import { stopRuleOf } from '../../../services/jobs/src/worker/stop-rules.js';

const item: JobItem = {
  page: 3,
  itemId: '123456789012',
  title: 'Sony "WH-1000XM4", boxed',
  url: 'https://www.ebay.com/itm/123456789012',
  imageUrl: null,
  condition: 'Pre-Owned',
  sold: true,
  soldDate: '2026-11-02',
  soldDateText: 'Sold  Nov 2, 2026',
  soldDateVerified: false,
  price: { value: 129.99, currency: 'USD' },
  priceText: '$129.99',
  priceIsDisplayedOnly: false,
  bestOfferAccepted: false,
  buyingFormat: 'auction',
  bidCount: 7,
  shipping: { value: 0, currency: 'USD' },
  shippingText: 'Free delivery',
  seller: { username: '=cmd|calc', feedbackScore: 10, positivePercent: 99.1 },
  location: 'Line one\nline two',
  looseMatch: false,
  comps: {
    kind: 'lot',
    condition: 'used',
    units: 2,
    unitPrice: { value: 65, currency: 'USD' },
    landedUnitPrice: { value: 65, currency: 'USD' },
    counted: false,
    excludedBecause: 'lot',
  },
};

t.test('the header row names the contract columns, in order, with CRLF', async (t) => {
  t.equal(
    CSV_HEADER,
    'page,itemId,title,url,soldDate,soldDateVerified,price,currency,priceIsDisplayedOnly,bestOfferAccepted,shipping,buyingFormat,bidCount,condition,sellerUsername,location,looseMatch,' +
      'kind,conditionGroup,units,unitPrice,landedUnitPrice,counted,excludedBecause\r\n',
  );
  t.equal(CSV_COLUMNS.length, 24);
});

t.test('RFC 4180 quoting and the formula guard', async (t) => {
  t.equal(csvField('plain'), 'plain');
  t.equal(csvField('a,b'), '"a,b"', 'commas quote the field');
  t.equal(csvField('say "hi"'), '"say ""hi"""', 'quotes are doubled inside quotes');
  t.equal(csvField('two\nlines'), '"two\nlines"', 'line breaks quote the field');
  t.equal(csvField('cr\rhere'), '"cr\rhere"');
  for (const start of ['=', '+', '-', '@']) t.equal(csvField(`${start}SUM(A1)`), `'${start}SUM(A1)`, `a cell starting with ${start} is not a formula`);
  t.equal(csvField('=a,b'), '"\'=a,b"', 'guard then quote');
  t.equal(csvField(null), '');
  t.equal(csvField(undefined), '');
  t.equal(csvField(false), 'false');
  t.equal(csvField(0), '0');
  t.equal(csvField(-5), '-5', 'numbers are numbers, not text');
  t.equal(
    csvRow(item),
    `3,123456789012,"Sony ""WH-1000XM4"", boxed",https://www.ebay.com/itm/123456789012,2026-11-02,false,129.99,USD,false,false,0,auction,7,Pre-Owned,'=cmd|calc,"Line one\nline two",false,lot,used,2,65,65,false,lot\r\n`,
  );
  const bare = csvRow({ ...item, title: 'plain', location: null, price: null, shipping: null, seller: null, bidCount: null, buyingFormat: null, soldDate: null });
  t.equal(bare.split(',').slice(4, 8).join(','), ',false,,', 'unknown values are empty cells');
});

t.test('stop rules', async (t) => {
  const base = { rows: 60, newItems: 60, page: 2, maxPages: 5, cancelRequested: false };
  t.equal(stopRuleOf(base), null, 'a full new page: go on');
  t.strictSame(stopRuleOf({ ...base, rows: 0, newItems: 0 }), { status: 'completed', stopReason: 'empty_page' });
  t.strictSame(stopRuleOf({ ...base, newItems: 0 }), { status: 'completed', stopReason: 'repeated_page' });
  t.equal(stopRuleOf({ ...base, newItems: 1 }), null, 'one new row is a new page');
  t.strictSame(stopRuleOf({ ...base, page: 5 }), { status: 'completed', stopReason: 'max_pages' });
  t.strictSame(stopRuleOf({ ...base, cancelRequested: true }), { status: 'cancelled', stopReason: 'cancelled' });
  t.strictSame(stopRuleOf({ ...base, page: 5, cancelRequested: true }), { status: 'completed', stopReason: 'max_pages' }, 'a page that ends the job anyway says why');
});
