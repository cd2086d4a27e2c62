import t from 'tap';
import type { ItemVerdict, StatsItem } from '@comps/shared/comps/statistics';
import { AppError } from '@comps/shared/errors/app-error';
import { archiveSeries, intervalStart } from '../../../services/jobs/src/tracked/archive-series.js';
import { runStopOf } from '../../../services/jobs/src/tracked/run-stop-rules.js';
import { decodeSalesCursor, encodeSalesCursor } from '../../../services/jobs/src/tracked/sales-cursor.js';
import { nextRunAfter } from '../../../services/jobs/src/tracked/schedule.js';
import { forAll, integerBetween } from '../../helpers/property-test.js';

// Pure: the run's stop rules, the schedule, the sales cursor and the archive's series (against a reference).

t.test('stop rules: empty page, then a page with nothing new (repeated when this run stored it all, else caught up), then the last page', async (t) => {
  const base = { rows: 10, newSales: 3, seenThisRun: false, page: 2, maxPages: 5 };
  t.equal(runStopOf(base), null);
  t.equal(runStopOf({ ...base, rows: 0, newSales: 0 }), 'empty_page');
  t.equal(runStopOf({ ...base, newSales: 0 }), 'caught_up');
  t.equal(runStopOf({ ...base, newSales: 0, seenThisRun: true }), 'repeated_page');
  t.equal(runStopOf({ ...base, page: 5 }), 'max_pages');
  t.equal(runStopOf({ ...base, page: 5, newSales: 0 }), 'caught_up', 'nothing new wins over the last page');
});

t.test('the next run: one period on, plus up to 10 % of it', async (t) => {
  const from = new Date('2026-11-25T10:00:00.000Z');
  t.equal(nextRunAfter('hourly', from, () => 0).toISOString(), '2026-11-25T11:00:00.000Z');
  t.equal(nextRunAfter('daily', from, () => 0.5).toISOString(), '2026-11-26T11:12:00.000Z');
  t.equal(nextRunAfter('weekly', from, () => 0.999999).getTime() - from.getTime(), 7 * 86_400_000 + Math.floor(0.999999 * 7 * 86_400_000 * 0.1));
});

t.test('the sales cursor: round trip, and anything else is a 400', async (t) => {
  const position = { soldDate: '2026-11-20', itemId: '123456789012' };
  t.strictSame(decodeSalesCursor(encodeSalesCursor(position)), position);
  t.match(encodeSalesCursor(position), /^[A-Za-z0-9_-]+$/);
  for (const bad of ['', 'abc', Buffer.from('2026-11-20_12').toString('base64url'), Buffer.from('20-11-2026_123456789012').toString('base64url')]) {
    let code: string | null = null;
    try {
      decodeSalesCursor(bad);
    } catch (error) {
      code = error instanceof AppError ? error.code : 'not an AppError';
    }
    t.equal(code, 'invalid_request', `refused: ${bad}`);
  }
});

t.test('interval starts: the day, the Monday of its week (ISO), the first of its month', async (t) => {
  t.equal(intervalStart('2026-11-25', 'day'), '2026-11-25');
  t.equal(intervalStart('2026-11-25', 'week'), '2026-11-23', 'a Wednesday');
  t.equal(intervalStart('2026-11-23', 'week'), '2026-11-23', 'a Monday');
  t.equal(intervalStart('2026-11-22', 'week'), '2026-11-16', 'a Sunday belongs to the week before');
  t.equal(intervalStart('2027-01-01', 'week'), '2026-12-28', 'across a year');
  t.equal(intervalStart('2026-02-28', 'month'), '2026-02-01');
});

// --- A reference series, written from the contract's words: counted sales grouped by interval, sorted, quartiles interpolated. ---
function referencePercentile(sorted: number[], p: number): number {
  const rank = (sorted.length - 1) * p;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}
function referenceSeries(items: StatsItem[], verdicts: ItemVerdict[], interval: 'day' | 'week' | 'month') {
  const groups: Record<string, number[]> = {};
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index]!;
    if (!item.soldDate) continue;
    const date = new Date(`${item.soldDate}T00:00:00Z`);
    let start = item.soldDate;
    if (interval === 'month') start = item.soldDate.slice(0, 7) + '-01';
    if (interval === 'week') {
      while (date.getUTCDay() !== 1) date.setUTCDate(date.getUTCDate() - 1);
      start = date.toISOString().slice(0, 10);
    }
    groups[start] ??= [];
    if (verdicts[index]!.counted && item.unitPrice) groups[start]!.push(item.unitPrice.value);
  }
  return Object.keys(groups)
    .sort()
    .map((start) => {
      const prices = groups[start]!.sort((a, b) => a - b);
      const enough = prices.length >= 3;
      const round = (value: number) => Math.round(value * 100) / 100;
      return { start, counted: prices.length, median: enough ? round(referencePercentile(prices, 0.5)) : null, p25: enough ? round(referencePercentile(prices, 0.25)) : null, p75: enough ? round(referencePercentile(prices, 0.75)) : null };
    });
}

t.test('the series against the reference on random archives', async (t) => {
  forAll(300, (random) => {
    const count = integerBetween(random, 0, 80);
    const items: StatsItem[] = [];
    const verdicts: ItemVerdict[] = [];
    for (let index = 0; index < count; index += 1) {
      const day = integerBetween(random, 0, 120);
      const price = { value: integerBetween(random, 100, 50_000) / 100, currency: 'USD' };
      items.push({
        price, priceRange: false, looseMatch: false, kind: 'single', condition: 'used', units: 1, unitPrice: random() < 0.05 ? null : price, landedUnitPrice: price,
        bestOfferAccepted: false, buyingFormat: 'auction', soldDate: random() < 0.05 ? null : new Date(Date.UTC(2026, 7, 1) + day * 86_400_000).toISOString().slice(0, 10),
      });
      const counted = random() < 0.8;
      verdicts.push({ counted, excludedBecause: counted ? null : 'outlier' });
    }
    for (const interval of ['day', 'week', 'month'] as const) {
      const found = JSON.stringify(archiveSeries(items, verdicts, interval, 'USD'));
      const expected = JSON.stringify(referenceSeries(items, verdicts, interval));
      if (found !== expected) throw new Error(`${interval}: ${found} != ${expected}`);
    }
  });
  t.pass('300 random archives, three intervals each');
});
