import { html, type SafeHtml } from '../../html.js';
import { formatNumber, plural } from '../format.js';
import { chartFigure, dateTicks, dayNumber, formatAxisDate, formatMoney, formatMoneyTick, horizontalAxis, isoOfDay, linearScale, niceTicks, valueAxis, type Plot } from './chart-kit.js';

const PLOT: Plot = { width: 760, height: 280, pad: { top: 16, right: 28, bottom: 34, left: 66 } };
/** An axis of more days than this reads in months. */
const MONTHS_AFTER_DAYS = 120;
/**
 * Points drawn at most: a job of 20,000 sales would make a page of megabytes (and a cloud no eye
 * separates). Past it, an even sample is drawn; the axes, the daily medians and the table keep every sale.
 */
export const MAX_DRAWN_SALES = 2000;

/** `count` of `items`, spread evenly through them in their order (all of them when there are no more). */
export function evenSample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, index) => items[Math.floor((index * items.length) / count)]!);
}

export interface Sale {
  /** ISO date the listing sold. */
  date: string;
  /** Its unit price. */
  price: number;
}

export interface SalesScatterInput {
  /** Unique on the page. */
  id: string;
  /** The counted items that have a sold date. */
  sales: readonly Sale[];
  /** The median of each sold date (null on a day of fewer than 3 sales), oldest first: `stats.daily`. */
  daily: ReadonlyArray<{ date: string; counted: number; median: number | null }>;
  currency: string | null;
}

export interface ScatterLayout {
  plot: Plot;
  points: Array<Sale & { cx: number; cy: number }>;
  /** The daily medians that exist, oldest first, joined by the line. */
  medians: Array<{ date: string; median: number; x: number; y: number }>;
  dayTicks: number[];
  priceTicks: number[];
  x: (day: number) => number;
  y: (price: number) => number;
  byMonth: boolean;
}

/** Where everything of the scatter goes: pure, so that its geometry is tested apart from the markup. */
export function scatterLayout(input: Pick<SalesScatterInput, 'sales' | 'daily'>): ScatterLayout {
  const plot = PLOT;
  const medians = input.daily.filter((day): day is { date: string; counted: number; median: number } => day.median !== null);
  const days = [...input.sales.map((sale) => dayNumber(sale.date)), ...medians.map((day) => dayNumber(day.date))];
  const prices = [...input.sales.map((sale) => sale.price), ...medians.map((day) => day.median)];
  const first = Math.min(...days);
  const last = Math.max(...days);
  // Half a day either side: a sale of the first or last day is not drawn on the frame.
  const x = linearScale([first - 0.5, last + 0.5], [plot.pad.left, plot.width - plot.pad.right]);
  const { lo, hi, ticks: priceTicks } = niceTicks(Math.min(...prices), Math.max(...prices), 4);
  const y = linearScale([lo, hi], [plot.height - plot.pad.bottom, plot.pad.top]);
  return {
    plot,
    points: evenSample(input.sales, MAX_DRAWN_SALES).map((sale) => ({ ...sale, cx: x(dayNumber(sale.date)), cy: y(sale.price) })),
    medians: medians.map((day) => ({ date: day.date, median: day.median, x: x(dayNumber(day.date)), y: y(day.median) })),
    dayTicks: dateTicks(first, last, 5),
    priceTicks,
    x,
    y,
    byMonth: last - first > MONTHS_AFTER_DAYS,
  };
}

/**
 * Each counted sale's unit price against the day it sold, with the daily median as a line (days of
 * 3 sales or more); per day as a table behind "Show as a table".
 */
export function salesScatter(input: SalesScatterInput): SafeHtml {
  if (input.sales.length === 0) return html`<p class="muted chart-empty" id="${input.id}">No counted sales with a sold date to draw.</p>`;
  const layout = scatterLayout(input);
  const money = (value: number) => formatMoney(value, input.currency);
  const { plot } = layout;
  const firstDay = layout.dayTicks[0]!;
  const lastDay = layout.dayTicks[layout.dayTicks.length - 1]!;
  const span = firstDay === lastDay ? `on ${isoOfDay(firstDay)}` : `from ${isoOfDay(firstDay)} to ${isoOfDay(lastDay)}`;
  const sampled = layout.points.length < input.sales.length ? ` ${formatNumber(layout.points.length)} of them are drawn, evenly through them; the line and the table are over all.` : '';
  const summary = `Unit prices of ${plural(input.sales.length, 'counted sale')} ${span}, by the day they sold${layout.medians.length > 0 ? `; the line joins the daily medians (${plural(layout.medians.length, 'day')} with 3 sales or more)` : ''}.${sampled}`;
  const line = layout.medians.length > 1 ? html`<polyline class="median-line" points="${layout.medians.map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' ')}"></polyline>` : '';
  const body = html`${valueAxis(plot, layout.priceTicks, layout.y, (value) => formatMoneyTick(value, input.currency))}
    ${horizontalAxis(plot, layout.dayTicks, layout.x, (day) => formatAxisDate(day, layout.byMonth))}
    ${layout.points.map((point) => html`<circle class="sale-point" cx="${point.cx.toFixed(1)}" cy="${point.cy.toFixed(1)}" r="3.5"><title>${point.date}: ${money(point.price)}</title></circle>`)}
    ${line}
    ${layout.medians.map((point) => html`<circle class="median-point" cx="${point.x.toFixed(1)}" cy="${point.y.toFixed(1)}" r="4"><title>${point.date}: median ${money(point.median)}</title></circle>`)}`;

  const salesByDay = new Map<string, number[]>();
  for (const sale of input.sales) {
    const prices = salesByDay.get(sale.date);
    if (prices) prices.push(sale.price);
    else salesByDay.set(sale.date, [sale.price]);
  }
  const medianOf = new Map(layout.medians.map((point) => [point.date, point.median]));
  const rows = [...salesByDay.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, prices]) => {
      const median = medianOf.get(date);
      return [date, formatNumber(prices.length), money(Math.min(...prices)), money(Math.max(...prices)), median === undefined ? '– (fewer than 3)' : money(median)];
    });
  return chartFigure({
    id: input.id,
    title: `Sold prices by day${input.currency ? ` (${input.currency})` : ''}`,
    summary,
    plot,
    body,
    legend: [
      { swatch: 'sale', label: 'A sale (unit price)' },
      ...(layout.medians.length > 0 ? [{ swatch: 'median', label: 'Daily median' }] : []),
    ],
    table: {
      columns: [{ label: 'Sold' }, { label: 'Sales', numeric: true }, { label: 'Lowest', numeric: true }, { label: 'Highest', numeric: true }, { label: 'Daily median', numeric: true }],
      rows,
    },
  });
}
