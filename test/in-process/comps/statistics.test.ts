import t from 'tap';
import type { IncludableReason, Stats } from '@comps/shared/contract/comps';
import { computeStats, medianIntervalRanks, percentile, type StatsItem } from '@comps/shared/comps/statistics';
import { forAll, integerBetween, type Random } from '../../helpers/property-test.js';

const usd = (value: number) => ({ value, currency: 'USD' });
const base: StatsItem = {
  price: usd(100), priceRange: false, looseMatch: false, kind: 'single', condition: 'used', units: 1, unitPrice: usd(100), landedUnitPrice: usd(100),
  bestOfferAccepted: false, buyingFormat: 'buyItNow', soldDate: '2026-11-01',
};
const item = (overrides: Partial<StatsItem> = {}): StatsItem => {
  const merged = { ...base, ...overrides };
  return overrides.unitPrice === undefined && overrides.price !== undefined ? { ...merged, unitPrice: merged.price, landedUnitPrice: merged.price } : merged;
};
const SOLD = { basis: 'sold' as const, siteCurrency: 'USD', include: new Set<IncludableReason>() };

// --- A straightforward reference, written from the contract's words, loop by loop. ---

function refPercentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  if (below === sorted.length - 1) return sorted[below]!;
  return sorted[below]! * (1 - (position - below)) + sorted[below + 1]! * (position - below);
}

function refChoose(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i += 1) result = (result * (n - k + i)) / i;
  return result;
}

/** The largest j with sum_{i=j}^{n-j} C(n,i) / 2^n >= 0.95 (small n only: exact enough below 60). */
function refInterval(n: number): { low: number; high: number } | null {
  let best: { low: number; high: number } | null = null;
  for (let j = 1; j <= Math.floor(n / 2); j += 1) {
    let coverage = 0;
    for (let i = j; i <= n - j; i += 1) coverage += refChoose(n, i) / 2 ** n;
    if (coverage >= 0.95) best = { low: j, high: n + 1 - j };
  }
  return best;
}

function refStats(items: StatsItem[], include: Set<IncludableReason>, siteCurrency: string): { counted: number[]; reasons: Array<string | null>; currency: string | null } {
  const counts: Record<string, number> = {};
  for (const entry of items) if (entry.price) counts[entry.price.currency] = (counts[entry.price.currency] ?? 0) + 1;
  let currency: string | null = null;
  for (const name of Object.keys(counts).sort()) if (currency === null || counts[name]! > counts[currency]! || (counts[name] === counts[currency] && name === siteCurrency)) currency = name;
  if (currency !== null && counts[siteCurrency] === counts[currency]) currency = siteCurrency;
  const reasons: Array<string | null> = items.map((entry) => {
    if (entry.looseMatch && !include.has('looseMatch')) return 'looseMatch';
    if (!entry.price || entry.price.value <= 0) return 'noPrice';
    if (entry.price.currency !== currency) return 'otherCurrency';
    if (entry.priceRange) return 'priceRange';
    if (entry.condition === 'forParts' && !include.has('forParts')) return 'forParts';
    if (entry.kind === 'accessory' && !include.has('accessory')) return 'accessory';
    if (entry.kind === 'lot' && (!include.has('lot') || !entry.unitPrice)) return 'lot';
    if (entry.bestOfferAccepted && !include.has('bestOfferAccepted')) return 'bestOfferAccepted';
    return null;
  });
  const candidates = items.filter((_, index) => reasons[index] === null);
  if (candidates.length >= 8 && !include.has('outlier')) {
    const logs = candidates.map((entry) => Math.log(entry.unitPrice!.value));
    const q1 = refPercentile(logs, 0.25);
    const q3 = refPercentile(logs, 0.75);
    items.forEach((entry, index) => {
      if (reasons[index] !== null) return;
      const value = Math.log(entry.unitPrice!.value);
      if (value < q1 - 1.5 * (q3 - q1) || value > q3 + 1.5 * (q3 - q1)) reasons[index] = 'outlier';
    });
  }
  return { counted: items.filter((_, index) => reasons[index] === null).map((entry) => entry.unitPrice!.value).sort((a, b) => a - b), reasons, currency };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function randomItem(random: Random): StatsItem {
  const currency = random() < 0.1 ? 'EUR' : 'USD';
  // Ties are common: prices drawn from a few dozen values, with a far one now and then.
  const value = random() < 0.05 ? integerBetween(random, 1, 5000) : 50 + integerBetween(random, 0, 30) * 5;
  const kind = random() < 0.1 ? 'accessory' : random() < 0.1 ? 'lot' : 'single';
  const units = kind === 'lot' ? (random() < 0.7 ? integerBetween(random, 2, 6) : null) : 1;
  const price = random() < 0.05 ? null : { value, currency };
  const unitPrice = price && units ? { value: round2(price.value / units), currency } : null;
  return {
    price,
    priceRange: random() < 0.03,
    looseMatch: random() < 0.05,
    kind,
    condition: random() < 0.08 ? 'forParts' : random() < 0.5 ? 'new' : random() < 0.1 ? null : 'used',
    units,
    unitPrice,
    landedUnitPrice: unitPrice && random() < 0.8 ? { value: unitPrice.value + 5, currency } : null,
    bestOfferAccepted: random() < 0.08,
    buyingFormat: random() < 0.4 ? 'auction' : random() < 0.9 ? 'buyItNow' : null,
    soldDate: `2026-11-${String(integerBetween(random, 1, 9)).padStart(2, '0')}`,
  };
}

t.test('against the reference on random collections: currency, every verdict, counted prices, percentiles, interval', async (t) => {
  const includable: IncludableReason[] = ['bestOfferAccepted', 'forParts', 'accessory', 'lot', 'outlier', 'looseMatch'];
  forAll(300, (random) => {
    const items = Array.from({ length: integerBetween(random, 0, 80) }, () => randomItem(random));
    const include = new Set(includable.filter(() => random() < 0.15));
    const { stats, verdicts } = computeStats(items, { ...SOLD, include });
    const reference = refStats(items, include, 'USD');
    if (stats.currency !== reference.currency) throw new Error(`currency ${stats.currency}, expected ${reference.currency}`);
    verdicts.forEach((verdict, index) => {
      if (verdict.excludedBecause !== reference.reasons[index]) throw new Error(`item ${index}: ${verdict.excludedBecause}, expected ${reference.reasons[index]}`);
      if (verdict.counted !== (reference.reasons[index] === null)) throw new Error(`item ${index}: counted disagrees`);
    });
    if (stats.counted !== reference.counted.length || stats.listings !== items.length) throw new Error('counts disagree');
    const n = reference.counted.length;
    if (n < 3) {
      if (stats.unitPrice !== null || stats.medianInterval !== null || stats.fences !== null || stats.confidence !== 'insufficient') throw new Error('figures from fewer than 3');
      return;
    }
    const expected = { min: reference.counted[0]!, p10: refPercentile(reference.counted, 0.1), p25: refPercentile(reference.counted, 0.25), median: refPercentile(reference.counted, 0.5), p75: refPercentile(reference.counted, 0.75), p90: refPercentile(reference.counted, 0.9), max: reference.counted[n - 1]! };
    for (const [name, value] of Object.entries(expected)) {
      if (stats.unitPrice![name as keyof typeof expected] !== round2(value)) throw new Error(`${name} ${stats.unitPrice![name as keyof typeof expected]}, expected ${round2(value)}`);
    }
    const k = Math.floor(n / 10);
    const trimmed = reference.counted.slice(k, n - k);
    if (stats.unitPrice!.trimmedMean !== round2(trimmed.reduce((a, b) => a + b, 0) / trimmed.length)) throw new Error('trimmed mean');
    const ranks = n >= 6 ? refInterval(n) : null;
    const interval = ranks ? { level: 0.95, low: round2(reference.counted[ranks.low - 1]!), high: round2(reference.counted[ranks.high - 1]!) } : null;
    if (JSON.stringify(stats.medianInterval) !== JSON.stringify(interval)) throw new Error(`interval ${JSON.stringify(stats.medianInterval)}, expected ${JSON.stringify(interval)}`);
    const confidence = n >= 30 ? 'high' : n >= 10 ? 'medium' : 'low';
    if (stats.confidence !== confidence) throw new Error('confidence');
  });
  t.pass('300 random collections agree with the reference');
});

t.test('the median interval: the binomial ranks, exact for small n and stable for large ones', async (t) => {
  for (let n = 1; n <= 50; n += 1) t.strictSame(medianIntervalRanks(n), refInterval(n), `n = ${n}`);
  // Large n: about n/2 -/+ 0.98 sqrt(n) (the normal approximation), and no underflow.
  const large = medianIntervalRanks(20_000)!;
  t.ok(Math.abs(large.low - (10_000 - 0.98 * Math.sqrt(20_000))) < 3, `20,000: ranks ${large.low} and ${large.high}`);
  t.equal(large.high, 20_001 - large.low);
});

t.test('percentiles interpolate between order statistics (PERCENTILE.INC)', async (t) => {
  t.equal(percentile([1, 2, 3, 4], 0.25), 1.75);
  t.equal(percentile([10], 0.9), 10);
  t.equal(percentile([1, 3], 0.5), 2);
});

t.test('one item: counted, no figures (insufficient)', async (t) => {
  const { stats, verdicts } = computeStats([item()], SOLD);
  t.strictSame(verdicts, [{ counted: true, excludedBecause: null }]);
  t.match(stats, { counted: 1, confidence: 'insufficient', unitPrice: null, medianInterval: null, fences: null, landedUnitPrice: null, soldDates: { first: '2026-11-01', last: '2026-11-01' } });
  t.strictSame(stats.daily, [{ date: '2026-11-01', counted: 1, median: null }]);
});

t.test('all excluded: every reason counted, no figures, a currency still chosen', async (t) => {
  const items = [
    item({ looseMatch: true }), item({ price: null, unitPrice: null }), item({ price: { value: 5, currency: 'GBP' } }), item({ priceRange: true }),
    item({ condition: 'forParts' }), item({ kind: 'accessory' }), item({ kind: 'lot', units: 3, unitPrice: usd(33.33) }), item({ bestOfferAccepted: true }),
  ];
  const { stats, verdicts } = computeStats(items, SOLD);
  t.strictSame(verdicts.map((verdict) => verdict.excludedBecause), ['looseMatch', 'noPrice', 'otherCurrency', 'priceRange', 'forParts', 'accessory', 'lot', 'bestOfferAccepted']);
  t.strictSame(stats.excluded, { looseMatch: 1, noPrice: 1, otherCurrency: 1, priceRange: 1, forParts: 1, accessory: 1, lot: 1, bestOfferAccepted: 1, outlier: 0 });
  t.match(stats, { currency: 'USD', counted: 0, confidence: 'insufficient', unitPrice: null, soldDates: null, daily: [] });
  t.strictSame(stats.bestOfferAccepted, { count: 1, medianAskingPrice: null });
  t.strictSame(stats.lots, { count: 1, medianUnitPrice: null });
  t.strictSame(stats.byCondition, [{ condition: 'forParts', counted: 1, median: null }], 'the broken one shows what broken ones fetch');
});

t.test('mixed currencies: the most common wins; a tie goes to the site\'s', async (t) => {
  const eur = (value: number) => item({ price: { value, currency: 'EUR' } });
  t.equal(computeStats([eur(1), eur(2), item()], SOLD).stats.currency, 'EUR');
  t.equal(computeStats([eur(1), item()], SOLD).stats.currency, 'USD');
  t.equal(computeStats([eur(1), item({ price: { value: 3, currency: 'GBP' } })], SOLD).stats.currency, 'EUR', 'a tie without the site\'s: the first in order');
  t.equal(computeStats([item({ price: null, unitPrice: null })], SOLD).stats.currency, null, 'no price at all: null');
});

t.test('fences on logarithms from 8 candidates: a price three times the median and a third of it alike', async (t) => {
  const prices = [90, 95, 100, 100, 100, 105, 110, 300, 33];
  const { stats, verdicts } = computeStats(prices.map((value) => item({ price: usd(value) })), SOLD);
  t.strictSame(verdicts.map((verdict) => verdict.excludedBecause), [null, null, null, null, null, null, null, 'outlier', 'outlier']);
  t.ok(stats.fences && stats.fences.low > 33 && stats.fences.high < 300, `fences ${JSON.stringify(stats.fences)}`);
  const seven = computeStats(prices.slice(2).map((value) => item({ price: usd(value) })), SOLD);
  t.equal(seven.stats.fences, null, 'seven candidates: no fences');
  t.equal(seven.stats.excluded.outlier, 0);
  const included = computeStats(prices.map((value) => item({ price: usd(value) })), { ...SOLD, include: new Set(['outlier']) });
  t.equal(included.stats.counted, 9, 'counted anyway when asked');
});

t.test('lots count at their unit price only when asked; a lot of no stated size never', async (t) => {
  const items = [item(), item(), item(), item({ kind: 'lot', units: 2, price: usd(180), unitPrice: usd(90) }), item({ kind: 'lot', units: null, price: usd(500), unitPrice: null })];
  const asked = computeStats(items, { ...SOLD, include: new Set(['lot']) });
  t.strictSame(asked.verdicts.map((verdict) => verdict.excludedBecause), [null, null, null, null, 'lot']);
  t.equal(asked.stats.unitPrice?.min, 90, 'the sized lot counts at 90 a unit');
  t.strictSame(asked.stats.lots, { count: 2, medianUnitPrice: null });
});

t.test('groups: by condition (broken ones kept), by format, best offers as upper bounds, landed prices, the daily series', async (t) => {
  const items: StatsItem[] = [
    ...[200, 210, 220].map((value) => item({ price: usd(value), condition: 'new', buyingFormat: 'auction', soldDate: '2026-11-02' })),
    ...[100, 110, 120, 130].map((value) => item({ price: usd(value), condition: 'used', soldDate: '2026-11-01' })),
    ...[20, 30, 40].map((value) => item({ price: usd(value), condition: 'forParts', soldDate: '2026-11-01' })),
    ...[300, 320, 340].map((value) => item({ price: usd(value), bestOfferAccepted: true })),
  ];
  const { stats } = computeStats(items, SOLD);
  t.strictSame(stats.byCondition, [
    { condition: 'new', counted: 3, median: 210 },
    { condition: 'used', counted: 4, median: 115 },
    { condition: 'forParts', counted: 3, median: 30 },
  ]);
  t.strictSame(stats.byFormat, [{ format: 'auction', counted: 3, median: 210 }, { format: 'buyItNow', counted: 4, median: 115 }]);
  t.strictSame(stats.bestOfferAccepted, { count: 3, medianAskingPrice: 320 });
  t.strictSame(stats.landedUnitPrice, { counted: 7, p25: 115, median: 130, p75: 205 });
  t.strictSame(stats.daily, [{ date: '2026-11-01', counted: 4, median: 115 }, { date: '2026-11-02', counted: 3, median: 210 }]);
  const asking = computeStats(items, { ...SOLD, basis: 'asking' }).stats;
  t.match(asking, { basis: 'asking', soldDates: null, daily: [] } as Partial<Stats>);
});
