import { CONDITION_GROUPS, EXCLUSION_REASONS, type CompsKind, type ConditionGroup, type ExclusionReason, type IncludableReason, type Stats } from '../contract/comps.js';
import { roundToMinorUnit, type Money } from '../contract/money.js';

/** What the statistics read of one listing: its facts and what classification said of it. */
export interface StatsItem {
  price: Money | null;
  /** The price is shown as a range (a listing with variations). */
  priceRange: boolean;
  looseMatch: boolean;
  kind: CompsKind;
  condition: ConditionGroup | null;
  units: number | null;
  unitPrice: Money | null;
  landedUnitPrice: Money | null;
  bestOfferAccepted: boolean;
  buyingFormat: 'auction' | 'buyItNow' | null;
  soldDate: string | null;
}

export interface StatsOptions {
  /** `sold` for sold listings (prices paid), `asking` for active ones. */
  basis: 'sold' | 'asking';
  /** The site's own currency: it wins a tie for the most common one. */
  siteCurrency: string;
  /** Reasons to count anyway (`statsInclude`). */
  include: ReadonlySet<IncludableReason>;
}

export interface ItemVerdict {
  counted: boolean;
  excludedBecause: ExclusionReason | null;
}

/** Each reason's place in the order they apply. */
const REASON_RANK = Object.fromEntries(EXCLUSION_REASONS.map((reason, rank) => [reason, rank])) as Record<ExclusionReason, number>;

/** Fences need this many candidates; fewer, and nothing is an outlier. */
const FENCE_MIN = 8;
/** The median's interval needs this many counted. */
const INTERVAL_MIN = 6;
/** A group's median needs this many. */
const GROUP_MIN = 3;
const TRIM = 0.1;
const LEVEL = 0.95;

/** The p-th percentile of sorted values, interpolating linearly between order statistics (Excel's PERCENTILE.INC, numpy's default). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lower = Math.floor(h);
  const upper = Math.min(lower + 1, sorted.length - 1);
  return sorted[lower]! + (h - lower) * (sorted[upper]! - sorted[lower]!);
}

/**
 * The distribution-free confidence interval of the median: the narrowest symmetric pair of order
 * statistics (1-based `j` and `n + 1 - j`) whose coverage, from the binomial distribution with
 * p = 0.5, is at least `level`: 1 - 2 P(B ≤ j - 1) ≥ level. Null when even the extremes fall short.
 */
export function medianIntervalRanks(n: number, level = LEVEL): { low: number; high: number } | null {
  const tail = (1 - level) / 2;
  // P(B = i) in logs: 2^-n underflows past about a thousand values.
  let logChoose = 0;
  let cdf = 0;
  let j = 0;
  for (let i = 0; i < n; i += 1) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    cdf += Math.exp(logChoose - n * Math.LN2);
    if (cdf > tail + 1e-12) break;
    j = i + 1;
  }
  return j === 0 ? null : { low: j, high: n + 1 - j };
}

function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[i]!;
  return sum / values.length;
}

/** Ascending, in a typed array: its sort is numeric and native (a job sorts tens of thousands). */
const sortedOf = (values: ArrayLike<number>) => Float64Array.from(values).sort();

/** The most common currency among priced items; a tie goes to the site's, else the first in order. */
function currencyOf(items: readonly StatsItem[], siteCurrency: string): string | null {
  const counts = new Map<string, number>();
  for (const item of items) if (item.price) counts.set(item.price.currency, (counts.get(item.price.currency) ?? 0) + 1);
  if (counts.size === 0) return null;
  const most = Math.max(...counts.values());
  const tied = [...counts].filter(([, count]) => count === most).map(([currency]) => currency).sort();
  return tied.includes(siteCurrency) ? siteCurrency : tied[0]!;
}

/**
 * The first reason before `outlier` that applies to an item (in the order of EXCLUSION_REASONS),
 * skipping those asked to be counted, and `skip`. Written out: it runs for every item of a job.
 */
function reasonBeforeOutlier(item: StatsItem, currency: string | null, include: ReadonlySet<IncludableReason>, skip?: ExclusionReason): ExclusionReason | null {
  if (skip !== 'looseMatch' && item.looseMatch && !include.has('looseMatch')) return 'looseMatch';
  if (skip !== 'noPrice' && (item.price === null || item.price.value <= 0)) return 'noPrice';
  if (skip !== 'otherCurrency' && item.price?.currency !== currency) return 'otherCurrency';
  if (skip !== 'priceRange' && item.priceRange) return 'priceRange';
  if (skip !== 'forParts' && item.condition === 'forParts' && !include.has('forParts')) return 'forParts';
  if (skip !== 'accessory' && item.kind === 'accessory' && !include.has('accessory')) return 'accessory';
  // A lot that states no size has no unit price: never counted.
  if (skip !== 'lot' && item.kind === 'lot' && (!include.has('lot') || item.unitPrice === null)) return 'lot';
  if (skip !== 'bestOfferAccepted' && item.bestOfferAccepted && !include.has('bestOfferAccepted')) return 'bestOfferAccepted';
  return null;
}

/**
 * The contract's `stats` of a collection, and each item's verdict (counted, or the first reason it
 * is not). Pure: the same items and options give the same figures.
 */
export function computeStats(items: readonly StatsItem[], options: StatsOptions): { stats: Stats; verdicts: ItemVerdict[] } {
  const { include } = options;
  const currency = currencyOf(items, options.siteCurrency);
  const round = (value: number) => (currency ? roundToMinorUnit(value, currency) : value);
  const reasons: Array<ExclusionReason | null> = items.map((item) => reasonBeforeOutlier(item, currency, include));
  const unit = (item: StatsItem) => item.unitPrice!.value;

  const candidates = items.map((_, index) => index).filter((index) => reasons[index] === null);
  let fences: Stats['fences'] = null;
  if (candidates.length >= FENCE_MIN) {
    const logs = sortedOf(candidates.map((index) => Math.log(unit(items[index]!))));
    const q1 = percentile(logs, 0.25);
    const q3 = percentile(logs, 0.75);
    const low = q1 - 1.5 * (q3 - q1);
    const high = q3 + 1.5 * (q3 - q1);
    fences = { low: round(Math.exp(low)), high: round(Math.exp(high)) };
    if (!include.has('outlier')) {
      for (const index of candidates) {
        const value = Math.log(unit(items[index]!));
        if (value < low || value > high) reasons[index] = 'outlier';
      }
    }
  }
  const counted = items.filter((_, index) => reasons[index] === null);
  const values = sortedOf(counted.map(unit));
  const n = values.length;
  const confidence = n >= 30 ? 'high' : n >= 10 ? 'medium' : n >= 3 ? 'low' : 'insufficient';
  const sufficient = confidence !== 'insufficient';
  const medianOf = (group: number[]) => (group.length >= GROUP_MIN ? round(percentile(sortedOf(group), 0.5)) : null);

  const trimmed = values.slice(Math.floor(n * TRIM), n - Math.floor(n * TRIM));
  const ranks = n >= INTERVAL_MIN ? medianIntervalRanks(n) : null;
  const landed = sortedOf(counted.filter((item) => item.landedUnitPrice?.currency === currency).map((item) => item.landedUnitPrice!.value));

  // By condition: the counted items and the broken ones that only their condition kept out, so forParts shows what they fetch.
  const byConditionItems = items.filter((item, index) => reasons[index] === null || (reasons[index] === 'forParts' && reasonBeforeOutlier(item, currency, include, 'forParts') === null));
  // Items no reason before `step` kept out: those the step itself is about (best offers, lots), counted or not.
  const reached = (step: ExclusionReason, index: number) => {
    const reason = reasons[index] ?? null;
    return reason === null || REASON_RANK[reason] >= REASON_RANK[step];
  };
  const bestOffers = items.filter((item, index) => item.bestOfferAccepted && reached('bestOfferAccepted', index));
  const lots = items.filter((item, index) => item.kind === 'lot' && reached('lot', index));
  const sold = options.basis === 'sold';
  const dates = sold ? soldDatesOf(counted) : [];

  const excluded = Object.fromEntries(EXCLUSION_REASONS.map((reason) => [reason, 0])) as Stats['excluded'];
  for (const reason of reasons) if (reason !== null) excluded[reason] += 1;
  const stats: Stats = {
    basis: options.basis,
    currency,
    listings: items.length,
    counted: n,
    excluded,
    confidence,
    unitPrice: sufficient
      ? {
          min: round(values[0]!),
          p10: round(percentile(values, 0.1)),
          p25: round(percentile(values, 0.25)),
          median: round(percentile(values, 0.5)),
          p75: round(percentile(values, 0.75)),
          p90: round(percentile(values, 0.9)),
          max: round(values[n - 1]!),
          mean: round(mean(values)),
          trimmedMean: round(mean(trimmed)),
        }
      : null,
    medianInterval: sufficient && ranks ? { level: LEVEL, low: round(values[ranks.low - 1]!), high: round(values[ranks.high - 1]!) } : null,
    fences: sufficient ? fences : null,
    landedUnitPrice: landed.length >= GROUP_MIN ? { counted: landed.length, p25: round(percentile(landed, 0.25)), median: round(percentile(landed, 0.5)), p75: round(percentile(landed, 0.75)) } : null,
    byCondition: CONDITION_GROUPS.map((condition) => byConditionItems.filter((item) => item.condition === condition))
      .map((group, index) => ({ condition: CONDITION_GROUPS[index]!, counted: group.length, median: medianOf(group.map(unit)) }))
      .filter((group) => group.counted > 0),
    byFormat: (['auction', 'buyItNow'] as const)
      .map((format) => ({ format, group: counted.filter((item) => item.buyingFormat === format) }))
      .filter(({ group }) => group.length > 0)
      .map(({ format, group }) => ({ format, counted: group.length, median: medianOf(group.map(unit)) })),
    bestOfferAccepted: bestOffers.length > 0 ? { count: bestOffers.length, medianAskingPrice: medianOf(bestOffers.filter((item) => item.unitPrice).map(unit)) } : null,
    lots: lots.length > 0 ? { count: lots.length, medianUnitPrice: medianOf(lots.filter((item) => item.unitPrice).map(unit)) } : null,
    soldDates: dates.length > 0 ? { first: dates[0]!, last: dates[dates.length - 1]! } : null,
    daily: [...unitPricesByDate(counted, dates)].map(([date, day]) => ({ date, counted: day.length, median: medianOf(day) })),
  };
  return { stats, verdicts: reasons.map((reason) => ({ counted: reason === null, excludedBecause: reason })) };
}

/** The unit prices of the items sold on each of `dates`, in their order: one pass, not one per day. */
function unitPricesByDate(items: readonly StatsItem[], dates: readonly string[]): Map<string, number[]> {
  const byDate = new Map<string, number[]>(dates.map((date) => [date, []]));
  for (const item of items) if (item.soldDate !== null) byDate.get(item.soldDate)?.push(item.unitPrice!.value);
  return byDate;
}

/** The days the items were sold on, each once, oldest first (a job's thousands of items fall on at most 90). */
function soldDatesOf(items: readonly StatsItem[]): string[] {
  const dates = new Set<string>();
  for (const item of items) if (item.soldDate !== null) dates.add(item.soldDate);
  return [...dates].sort();
}
