import type { SeriesEntry, SeriesInterval } from '@comps/shared/contract/tracked-search';
import { roundToMinorUnit } from '@comps/shared/contract/money';
import { percentile, type ItemVerdict, type StatsItem } from '@comps/shared/comps/statistics';

const DAY_MS = 86_400_000;
/** Figures of an interval need this many counted sales (as the daily figures of a collection). */
const FIGURES_FROM = 3;

/** The first day of the interval holding `date` (`YYYY-MM-DD`): the day, its week's Monday, or its month's first day. */
export function intervalStart(date: string, interval: SeriesInterval): string {
  if (interval === 'day') return date;
  if (interval === 'month') return `${date.slice(0, 8)}01`;
  const time = Date.parse(`${date}T00:00:00.000Z`);
  // getUTCDay: Sunday 0 … Saturday 6; a week starts on Monday (ISO 8601).
  const sinceMonday = (new Date(time).getUTCDay() + 6) % 7;
  return new Date(time - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The series of a tracked search's statistics: one entry per interval with sales, oldest first, with
 * the number counted and the median and quartiles of their unit prices (null below 3).
 * `verdicts` are the statistics' verdicts over the same items, so a sale counts here exactly when it
 * counts in the period's `stats`; figures are rounded to the minor unit of the statistics' currency.
 * Sales without a date are not in the series.
 */
export function archiveSeries(items: readonly StatsItem[], verdicts: readonly ItemVerdict[], interval: SeriesInterval, currency: string | null): SeriesEntry[] {
  const round = (value: number) => (currency ? roundToMinorUnit(value, currency) : value);
  const groups = new Map<string, number[]>();
  // A year holds tens of thousands of sales on a few hundred days: each day's interval is worked out once.
  const startOfDay = new Map<string, string>();
  items.forEach((item, index) => {
    if (item.soldDate === null) return;
    let start = startOfDay.get(item.soldDate);
    if (start === undefined) {
      start = intervalStart(item.soldDate, interval);
      startOfDay.set(item.soldDate, start);
    }
    let prices = groups.get(start);
    if (!prices) groups.set(start, (prices = []));
    if (verdicts[index]?.counted && item.unitPrice !== null) prices.push(item.unitPrice.value);
  });
  return [...groups.keys()].sort().map((start) => {
    const prices = groups.get(start)!.sort((a, b) => a - b);
    const figures = prices.length >= FIGURES_FROM;
    return {
      start,
      counted: prices.length,
      median: figures ? round(percentile(prices, 0.5)) : null,
      p25: figures ? round(percentile(prices, 0.25)) : null,
      p75: figures ? round(percentile(prices, 0.75)) : null,
    };
  });
}
