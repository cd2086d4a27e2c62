import type { SeriesEntry, SeriesInterval } from '@comps/shared/contract/tracked-search';
import { html, type SafeHtml } from '../../html.js';
import { formatNumber, plural } from '../format.js';
import {
  chartFigure,
  dateTicks,
  dayNumber,
  formatAxisDate,
  formatMoney,
  formatMoneyTick,
  horizontalAxis,
  isoOfDay,
  linearScale,
  niceTicks,
  valueAxis,
  type Plot,
} from './chart-kit.js';

/**
 * A tracked search's price over time: the median of each interval as a line, with the band from
 * its 25th to its 75th percentile, drawn on the server. An interval without figures (fewer than 3
 * counted sales) or without sales at all is a gap in the line, never a zero. Pure: no I/O.
 */

/** Narrow enough to stay readable on a phone, wide enough for five date labels, with room on the left for prices such as `CA$1,200`. */
export const SERIES_PLOT: Plot = { width: 560, height: 260, pad: { top: 16, right: 52, bottom: 34, left: 96 } };
/** The first interval is drawn this far right of the price axis, so that its date label clears the lowest price label. */
export const SERIES_X_INSET = 40;

/** With this many intervals or fewer, each has its own date label. */
const LABEL_EVERY_ENTRY = 6;
/** Half the width of the band of an interval drawn alone (no neighbour to join). */
const LONE_BAND_HALF_WIDTH = 4;

export interface SeriesPoint {
  entry: SeriesEntry;
  x: number;
  /** The vertical positions of the median and the quartiles (higher prices are higher up: smaller y). */
  median: number;
  p25: number;
  p75: number;
}

export interface SeriesGeometry {
  /** Runs of consecutive intervals with figures: a line (and band) each; a run of one is a dot. */
  segments: SeriesPoint[][];
  /** Null when no interval has figures (nothing to draw against a price axis). */
  valueTicks: number[] | null;
  y: (value: number) => number;
  /** Days (see dayNumber) labelled on the date axis. */
  dateTicks: number[];
  x: (day: number) => number;
  /** Whether dates are labelled by month (`Jul 2026`) rather than by day (`3 Jul`). */
  byMonth: boolean;
}

/** The start of the interval after the one that starts on `start`. */
export function nextIntervalStart(start: string, interval: SeriesInterval): string {
  if (interval === 'day') return isoOfDay(dayNumber(start) + 1);
  if (interval === 'week') return isoOfDay(dayNumber(start) + 7);
  const [year, month] = start.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
}

/** Where everything goes: scales, the line's segments and the axes' ticks. */
export function seriesGeometry(series: readonly SeriesEntry[], interval: SeriesInterval, plot: Plot = SERIES_PLOT): SeriesGeometry {
  const days = series.map((entry) => dayNumber(entry.start));
  const first = days[0] ?? 0;
  const last = days.at(-1) ?? 0;
  const x = linearScale([first, last], [plot.pad.left + SERIES_X_INSET, plot.width - plot.pad.right]);

  const withFigures = series.filter((entry) => entry.median !== null && entry.p25 !== null && entry.p75 !== null);
  const lows = withFigures.map((entry) => entry.p25!);
  const highs = withFigures.map((entry) => entry.p75!);
  const nice = withFigures.length > 0 ? niceTicks(Math.min(...lows), Math.max(...highs)) : null;
  const y = linearScale(nice ? [nice.lo, nice.hi] : [0, 1], [plot.height - plot.pad.bottom, plot.pad.top]);

  const segments: SeriesPoint[][] = [];
  let current: SeriesPoint[] = [];
  series.forEach((entry, index) => {
    const previous = series[index - 1];
    // A gap: this interval has no figures, or the one before it had no sales at all (it is missing).
    if (current.length > 0 && (entry.median === null || !previous || nextIntervalStart(previous.start, interval) !== entry.start)) {
      segments.push(current);
      current = [];
    }
    if (entry.median === null || entry.p25 === null || entry.p75 === null) return;
    current.push({ entry, x: x(days[index]!), median: y(entry.median), p25: y(entry.p25), p75: y(entry.p75) });
  });
  if (current.length > 0) segments.push(current);

  const byMonth = interval === 'month' || last - first > 180;
  const ticks = series.length <= LABEL_EVERY_ENTRY ? days : dateTicks(first, last, 5);
  return { segments, valueTicks: nice?.ticks ?? null, y, dateTicks: ticks, x, byMonth };
}

const at = (value: number) => value.toFixed(1);

/** The band of a segment: along the 75th percentile, and back along the 25th. */
function bandPath(segment: readonly SeriesPoint[]): string {
  const upper = segment.map((point, index) => `${index === 0 ? 'M' : 'L'}${at(point.x)} ${at(point.p75)}`);
  const lower = [...segment].reverse().map((point) => `L${at(point.x)} ${at(point.p25)}`);
  return `${upper.join(' ')} ${lower.join(' ')} Z`;
}

function linePath(segment: readonly SeriesPoint[]): string {
  return segment.map((point, index) => `${index === 0 ? 'M' : 'L'}${at(point.x)} ${at(point.median)}`).join(' ');
}

function drawSegment(segment: readonly SeriesPoint[]): SafeHtml {
  if (segment.length === 1) {
    const point = segment[0]!;
    return html`<rect class="series-band" x="${at(point.x - LONE_BAND_HALF_WIDTH)}" y="${at(point.p75)}" width="${LONE_BAND_HALF_WIDTH * 2}" height="${at(point.p25 - point.p75)}"></rect>
      <circle class="series-point" cx="${at(point.x)}" cy="${at(point.median)}" r="3.5"></circle>`;
  }
  return html`<path class="series-band" d="${bandPath(segment)}"></path>
    <path class="series-median" d="${linePath(segment)}"></path>`;
}

const INTERVAL_WORDS: Record<SeriesInterval, { one: string; many: string; column: string }> = {
  day: { one: 'day', many: 'days', column: 'Day' },
  week: { one: 'week', many: 'weeks', column: 'Week from' },
  month: { one: 'month', many: 'months', column: 'Month from' },
};

export interface SeriesChartInput {
  series: readonly SeriesEntry[];
  interval: SeriesInterval;
  /** The prices' currency (the statistics', or the site's when the period has no sale). */
  currency: string | null;
  id?: string;
}

/** The chart in its figure, with "Show as a table"; a sentence instead when the period has no sale. */
export function seriesChart(input: SeriesChartInput): SafeHtml {
  const { series, interval, currency } = input;
  const words = INTERVAL_WORDS[interval];
  if (series.length === 0) return html`<p class="muted" data-testid="series-empty">No sales in this period yet: the chart appears once a run has archived sales.</p>`;

  const plot = SERIES_PLOT;
  const geometry = seriesGeometry(series, interval, plot);
  const money = (value: number | null) => (value === null ? '–' : formatMoney(value, currency));
  const latest = series.findLast((entry) => entry.median !== null);
  const firstStart = series[0]!.start;
  const lastStart = series.at(-1)!.start;
  const summary =
    `Median sold price per unit by ${words.one}, with the band from the 25th to the 75th percentile: ${plural(series.length, `${words.one} with sales`, `${words.many} with sales`)}, ${firstStart} to ${lastStart}. ` +
    (latest
      ? `The latest median is ${money(latest.median)} (${words.one} from ${latest.start}, ${plural(latest.counted, 'sale')} counted).`
      : `No ${words.one} has the 3 counted sales a median needs.`);

  const body = html`${geometry.valueTicks ? valueAxis(plot, geometry.valueTicks, geometry.y, (tick) => formatMoneyTick(tick, currency)) : ''}
    ${horizontalAxis(plot, geometry.dateTicks, geometry.x, (day) => formatAxisDate(day, geometry.byMonth))}
    ${geometry.segments.map(drawSegment)}
    ${geometry.valueTicks
      ? ''
      : html`<text class="series-none" x="${(plot.width + plot.pad.left + SERIES_X_INSET - plot.pad.right) / 2}" y="${plot.height / 2}" text-anchor="middle">Too few sales for a median</text>`}`;

  return html`<div class="series-chart">${chartFigure({
    id: input.id ?? 'price-series',
    title: `Median price per unit by ${words.one}`,
    summary,
    plot,
    body,
    legend: [
      { swatch: 'series-median', label: 'Median' },
      { swatch: 'series-band', label: '25th to 75th percentile' },
    ],
    table: {
      columns: [{ label: words.column }, { label: 'Counted', numeric: true }, { label: '25th percentile', numeric: true }, { label: 'Median', numeric: true }, { label: '75th percentile', numeric: true }],
      rows: series.map((entry) => [entry.start, formatNumber(entry.counted), money(entry.p25), money(entry.median), money(entry.p75)]),
    },
  })}</div>`;
}
