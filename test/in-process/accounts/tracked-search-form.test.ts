import t from 'tap';
import { EMPTY_FORM, readTrackedSearchForm, trackedSearchForm } from '../../../services/accounts/src/web/views/tracked-search-form.js';

// The dashboard's create form read by the API's own schema: what it sends, and its refusals in words.

t.test('a filled form is the body POST /v1/tracked-searches takes', async (t) => {
  const reading = readTrackedSearchForm({
    ...EMPTY_FORM,
    keyword: '  brass lamp -shade ',
    marketSite: 'market.de',
    itemCondition: 'used',
    minPrice: '20',
    maxPrice: '99.5',
    buyingFormat: 'auction',
    exactMatch: true,
    schedule: 'weekly',
    maxPagesPerRun: '3',
    statsInclude: ['lot', 'bestOfferAccepted'],
  });
  t.ok(reading.ok);
  if (!reading.ok) return;
  t.match(reading.body, {
    keyword: 'brass lamp -shade',
    marketSite: 'market.de',
    categoryId: '0',
    itemCondition: 'used',
    minPrice: 20,
    maxPrice: 99.5,
    buyingFormat: 'auction',
    exactMatch: true,
    schedule: 'weekly',
    maxPagesPerRun: 3,
    statsInclude: ['bestOfferAccepted', 'lot'],
  });
  t.equal(reading.body.name, undefined, 'no name: the API names it after the keyword');

  const defaults = readTrackedSearchForm({ ...EMPTY_FORM, keyword: 'lamp' });
  t.match(defaults, { ok: true, body: { schedule: 'daily', maxPagesPerRun: 5, exactMatch: true, minPrice: undefined } }, "the form's defaults are the API's");
});

t.test('refusals by field, in words', async (t) => {
  const reading = readTrackedSearchForm({ ...EMPTY_FORM, keyword: ' ', minPrice: 'ten', maxPagesPerRun: '21', schedule: 'yearly' });
  t.notOk(reading.ok);
  if (reading.ok) return;
  t.strictSame(reading.errors, {
    keyword: 'must not be empty',
    minPrice: 'must be a number',
    maxPagesPerRun: 'must be at most 20',
    schedule: 'must be one of hourly, daily, weekly',
  });
  const crossed = readTrackedSearchForm({ ...EMPTY_FORM, keyword: 'lamp', minPrice: '50', maxPrice: '10' });
  t.strictSame(crossed.ok ? null : crossed.errors, { minPrice: 'must not be above the highest price' }, 'the bounds named as the form names them');

  const markup = trackedSearchForm({ csrfToken: 'token', values: { ...EMPTY_FORM, keyword: 'lamp', minPrice: '50', maxPrice: '10' }, errors: { minPrice: 'must not be above the highest price' } }).value;
  t.match(markup, /role="alert">The tracked search was not created: Lowest price must not be above the highest price\./, 'said at the top');
  t.match(markup, /id="ts-min-price" name="minPrice" type="text" inputmode="decimal" value="50" aria-invalid="true" aria-describedby="ts-minPrice-error"/, 'the field kept and marked');
  t.match(markup, /id="ts-keyword" name="keyword" [^>]*value="lamp"/, 'the other values kept');
});
