import { html, type SafeHtml } from '../../html.js';
import { formatNumber, plural } from '../format.js';
import { chartFigure, formatMoney, formatMoneyTick, horizontalAxis, linearScale, niceTicks, valueAxis, type Plot } from './chart-kit.js';

const PLOT: Plot = { width: 760, height: 260, pad: { top: 26, right: 28, bottom: 34, left: 48 } };
/** Bins of a histogram: about the square root of the prices, within these bounds (round edges may give fewer). */
const MIN_BINS = 5;
const MAX_BINS = 20;
/** At most this many labels on the price axis (a bin edge each, evenly skipped). */
const PRICE_LABELS = 6;

export interface PriceHistogramInput {
  /** Unique on the page. */
  id: string;
  /** The unit prices of the counted items. */
  prices: readonly number[];
  currency: string | null;
  median: number | null;
  fences: { low: number; high: number } | null;
}

export interface HistogramBin {
  /** Prices from `from` (included) to `to` (excluded, but for the last bin, which includes it). */
  from: number;
  to: number;
  count: number;
}

export interface HistogramMarker {
  kind: 'median' | 'low-fence' | 'high-fence';
  value: number;
  x: number;
}

export interface HistogramLayout {
  plot: Plot;
  /** Bins of one width from a round price to a round price, covering every price once (and the markers). */
  bins: Array<HistogramBin & { x: number; width: number; y: number; height: number }>;
  step: number;
  priceTicks: number[];
  countTicks: number[];
  x: (price: number) => number;
  y: (count: number) => number;
  markers: HistogramMarker[];
}

/**
 * Bins of round edges over the prices and `alsoCover` (the marked values, so that their lines fall
 * on the axis): each price in exactly one bin, the first bin holding its lower edge, each next one
 * from its lower edge up to (not including) its upper one, the last one including its upper edge.
 */
export function histogramBins(prices: readonly number[], alsoCover: readonly number[] = []): { bins: HistogramBin[]; step: number } {
  if (prices.length === 0) return { bins: [], step: 0 };
  const values = [...prices, ...alsoCover];
  const wanted = Math.min(MAX_BINS, Math.max(MIN_BINS, Math.ceil(Math.sqrt(prices.length))));
  const { ticks: edges } = niceTicks(Math.min(...values), Math.max(...values), wanted);
  const bins = edges.slice(0, -1).map((from, index) => ({ from, to: edges[index + 1]!, count: 0 }));
  const step = bins[0]!.to - bins[0]!.from;
  for (const price of prices) {
    // The estimate from the step, corrected by the edges themselves (floating point may miss by one).
    let index = Math.min(bins.length - 1, Math.max(0, Math.floor((price - bins[0]!.from) / step)));
    while (index < bins.length - 1 && price >= bins[index + 1]!.from) index += 1;
    while (index > 0 && price < bins[index]!.from) index -= 1;
    bins[index]!.count += 1;
  }
  return { bins, step };
}

/**
 * Whether a marked value is drawn: within the prices' range widened by that range on each side. Fences come from the
 * logarithms' quartiles and can lie far beyond every price; drawn there, they would squeeze the bars into a corner
 * (the summary still gives them).
 */
export function isNearPrices(value: number, prices: readonly number[]): boolean {
  if (prices.length === 0) return false;
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const span = high > low ? high - low : Math.max(Math.abs(high) * 0.1, 1);
  return value >= low - span && value <= high + span;
}

/** Where everything of the histogram goes: pure, so that its geometry is tested apart from the markup. */
export function histogramLayout(input: Pick<PriceHistogramInput, 'prices' | 'median' | 'fences'>): HistogramLayout {
  const marked: Array<Pick<HistogramMarker, 'kind' | 'value'>> = [
    ...(input.median !== null ? [{ kind: 'median' as const, value: input.median }] : []),
    ...(input.fences ? [{ kind: 'low-fence' as const, value: input.fences.low }, { kind: 'high-fence' as const, value: input.fences.high }] : []),
  ].filter((marker) => isNearPrices(marker.value, input.prices));
  const { bins, step } = histogramBins(input.prices, marked.map((marker) => marker.value));
  const plot = PLOT;
  const left = plot.pad.left;
  const right = plot.width - plot.pad.right;
  const baseline = plot.height - plot.pad.bottom;
  const lo = bins[0]?.from ?? 0;
  const hi = bins[bins.length - 1]?.to ?? 1;
  const x = linearScale([lo, hi], [left, right]);
  const highest = Math.max(1, ...bins.map((bin) => bin.count));
  const countTicks = niceTicks(0, highest, 4).ticks.filter((tick) => Number.isInteger(tick));
  const y = linearScale([0, countTicks[countTicks.length - 1]!], [baseline, plot.pad.top]);
  const edges = bins.length > 0 ? [...bins.map((bin) => bin.from), hi] : [];
  const every = Math.max(1, Math.ceil((edges.length - 1) / (PRICE_LABELS - 1)));
  const priceTicks = edges.filter((_, index) => index % every === 0);
  return {
    plot,
    bins: bins.map((bin) => ({ ...bin, x: x(bin.from), width: x(bin.to) - x(bin.from), y: y(bin.count), height: baseline - y(bin.count) })),
    step,
    priceTicks,
    countTicks,
    x,
    y,
    markers: marked.map((marker) => ({ ...marker, x: x(marker.value) })),
  };
}

const MARKER_LABELS: Record<HistogramMarker['kind'], string> = { median: 'median', 'low-fence': 'low fence', 'high-fence': 'high fence' };

function markerLine(layout: HistogramLayout, marker: HistogramMarker, money: (value: number) => string): SafeHtml {
  const { plot } = layout;
  const baseline = plot.height - plot.pad.bottom;
  const isMedian = marker.kind === 'median';
  // The median's label sits above the plot; the fences' inside it, away from the median's line.
  const anchor = marker.kind === 'low-fence' ? 'start' : marker.kind === 'high-fence' ? 'end' : 'middle';
  const dx = marker.kind === 'low-fence' ? 4 : marker.kind === 'high-fence' ? -4 : 0;
  const labelY = isMedian ? plot.pad.top - 8 : plot.pad.top + 10;
  return html`<g class="${isMedian ? 'marker-median' : 'marker-fence'}"><title>${MARKER_LABELS[marker.kind]}: ${money(marker.value)}</title>
    <line x1="${marker.x.toFixed(1)}" x2="${marker.x.toFixed(1)}" y1="${plot.pad.top - (isMedian ? 4 : 0)}" y2="${baseline}"></line>
    <text class="marker-label" x="${(marker.x + dx).toFixed(1)}" y="${labelY}" text-anchor="${anchor}">${MARKER_LABELS[marker.kind]} ${money(marker.value)}</text>
  </g>`;
}

/**
 * The unit prices of the counted items as a histogram, with the median (a line) and the fences
 * beyond which a price is an outlier (dashed lines) marked; the bins as a table behind "Show as a table".
 */
export function priceHistogram(input: PriceHistogramInput): SafeHtml {
  if (input.prices.length === 0) return html`<p class="muted chart-empty" id="${input.id}">No counted prices to draw.</p>`;
  const layout = histogramLayout(input);
  const money = (value: number) => formatMoney(value, input.currency);
  const tick = (value: number) => formatMoneyTick(value, input.currency);
  const { plot, bins } = layout;
  const first = bins[0]!;
  const last = bins[bins.length - 1]!;
  const marks = [
    input.median !== null ? `The median, ${money(input.median)}, is the solid line` : null,
    input.fences
      ? `the fences (${money(input.fences.low)} and ${money(input.fences.high)}) the dashed ones: a price beyond them is an outlier${layout.markers.filter((marker) => marker.kind !== 'median').length < 2 ? ' (a fence far from every price is not drawn)' : ''}`
      : null,
  ].filter(Boolean);
  const summary = `Unit prices of ${plural(input.prices.length, 'counted item')}, in ${plural(bins.length, 'bin')} of ${money(layout.step)} from ${money(first.from)} to ${money(last.to)}.${marks.length > 0 ? ` ${marks.join('; ')}.` : ''}`;
  const body = html`${valueAxis(plot, layout.countTicks, layout.y, (value) => formatNumber(value))}
    ${bins.map((bin) => html`<rect class="bar-counted" x="${bin.x.toFixed(1)}" y="${bin.y.toFixed(1)}" width="${Math.max(0, bin.width - 1).toFixed(1)}" height="${bin.height.toFixed(1)}"><title>${money(bin.from)} to ${money(bin.to)}: ${plural(bin.count, 'item')}</title></rect>`)}
    ${horizontalAxis(plot, layout.priceTicks, layout.x, tick)}
    ${layout.markers.map((marker) => markerLine(layout, marker, money))}`;
  return chartFigure({
    id: input.id,
    title: `Unit prices${input.currency ? ` (${input.currency})` : ''}`,
    summary,
    plot,
    body,
    legend: [
      { swatch: 'counted', label: 'Counted items per price band' },
      ...(input.median !== null ? [{ swatch: 'median', label: 'Median' }] : []),
      ...(input.fences ? [{ swatch: 'fence', label: 'Fences (outliers beyond)' }] : []),
    ],
    table: {
      columns: [{ label: 'From', numeric: true }, { label: 'To', numeric: true }, { label: 'Items', numeric: true }],
      rows: bins.map((bin) => [money(bin.from), money(bin.to), formatNumber(bin.count)]),
    },
  });
}
