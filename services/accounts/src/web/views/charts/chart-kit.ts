import { minorUnitsOf } from '@comps/shared/contract/money';
import { html, type SafeHtml } from '../../html.js';

/**
 * What every server-drawn chart shares: scales with round ticks, money in the site's currency on
 * the axes, dates on a time axis, and the figure around the SVG (a title and summary for screen
 * readers, a legend, and the same numbers as a table behind "Show as a table"). Pure: no I/O.
 */

export interface Plot {
  width: number;
  height: number;
  pad: { top: number; right: number; bottom: number; left: number };
}

/** A linear map from a domain onto a pixel range (a flat domain maps to the range's middle). */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / (d1 - d0)) * (r1 - r0);
}

/**
 * Round ticks covering [min, max]: a step of 1, 2, 2.5 or 5 times a power of ten, at most `count`
 * steps, the domain widened to whole steps (so an axis reads 0, 50, 100 and never 13.7, 41.2).
 */
export function niceTicks(min: number, max: number, count = 4): { lo: number; hi: number; ticks: number[] } {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { lo: 0, hi: 1, ticks: [0, 1] };
  if (max < min) [min, max] = [max, min];
  if (max === min) {
    const spread = Math.abs(max) > 0 ? Math.abs(max) * 0.1 : 1;
    min -= spread;
    max += spread;
  }
  const rough = (max - min) / count;
  // The smallest round step that spans the range in `count` steps: widening to whole steps can take one more than
  // `rough` suggests, so the search goes on to the next powers of ten until one fits.
  let step = 0;
  for (let power = 10 ** Math.floor(Math.log10(rough)); step === 0; power *= 10) {
    step = [1, 2, 2.5, 5].map((factor) => factor * power).find((candidate) => Math.ceil(max / candidate) - Math.floor(min / candidate) <= count) ?? 0;
  }
  const lo = Math.floor(min / step) * step;
  const hi = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let index = 0; lo + index * step <= hi + step / 1e6; index += 1) ticks.push(Number((lo + index * step).toPrecision(12)));
  return { lo, hi, ticks };
}

const MONEY_FORMATS = new Map<string, Intl.NumberFormat>();

/** A price in its currency as the reader expects it (`$1,234.50`, `€12.00`, `¥1,200`). */
export function formatMoney(value: number, currency: string | null): string {
  if (!currency) return value.toFixed(2);
  let format = MONEY_FORMATS.get(currency);
  if (!format) {
    const digits = minorUnitsOf(currency);
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    MONEY_FORMATS.set(currency, format);
  }
  return format.format(value);
}

/** An axis label: whole amounts without cents (`$1,200`), small ones with them (`$2.50`). */
export function formatMoneyTick(value: number, currency: string | null): string {
  if (!currency) return String(value);
  const whole = Number.isInteger(value) && Math.abs(value) >= 10;
  // en-US formats: '.' is the decimal point, ',' groups thousands (¥20,000 keeps its zeros).
  return whole ? formatMoney(value, currency).replace(/\.0+(?=\D*$)/, '') : formatMoney(value, currency);
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of an ISO date (`2026-11-25`), for a time axis. */
export function dayNumber(isoDate: string): number {
  return Math.round(Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`) / DAY_MS);
}

export function isoOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A date on an axis: `3 Jul`, or `Jul 2026` on an axis of months. */
export function formatAxisDate(day: number, byMonth: boolean): string {
  const date = new Date(day * DAY_MS);
  return byMonth ? `${SHORT_MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}` : `${date.getUTCDate()} ${SHORT_MONTHS[date.getUTCMonth()]}`;
}

/** At most `count` evenly spread days from `first` to `last` (both included when there is room). */
export function dateTicks(first: number, last: number, count = 5): number[] {
  if (last <= first) return [first];
  const step = Math.max(1, Math.ceil((last - first) / (count - 1)));
  const ticks: number[] = [];
  for (let day = first; day < last; day += step) ticks.push(day);
  if (ticks.length > 0 && last - ticks[ticks.length - 1]! < step / 2) ticks.pop();
  ticks.push(last);
  return ticks;
}

export interface ChartFigure {
  /** Unique on the page: the SVG's title and summary are found by it. */
  id: string;
  title: string;
  /** One or two sentences that say what the chart shows, for everyone (caption) and screen readers. */
  summary: string;
  plot: Plot;
  /** The SVG's content, drawn in `plot`'s coordinates. */
  body: SafeHtml;
  legend?: Array<{ swatch: string; label: string }>;
  /** The same numbers as a table: column headings (a `num` column is right-aligned) and rows. */
  table: { columns: Array<{ label: string; numeric?: boolean }>; rows: Array<Array<string | SafeHtml>> };
}

/** The figure around a chart: the SVG, its legend, its caption, and "Show as a table". */
export function chartFigure(figure: ChartFigure): SafeHtml {
  const { width, height } = figure.plot;
  return html`<figure class="chart-figure" id="${figure.id}">
    <svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${figure.id}-title ${figure.id}-summary" xmlns="http://www.w3.org/2000/svg">
      <title id="${figure.id}-title">${figure.title}</title>
      <desc id="${figure.id}-summary">${figure.summary}</desc>
      ${figure.body}
    </svg>
    ${figure.legend && figure.legend.length > 0 ? html`<ul class="legend" aria-hidden="true">${figure.legend.map((entry) => html`<li><span class="swatch ${entry.swatch}"></span>${entry.label}</li>`)}</ul>` : ''}
    <figcaption class="muted">${figure.summary}</figcaption>
    <details>
      <summary>Show as a table</summary>
      <div class="table-wrap"><table>
        <caption>${figure.title}</caption>
        <thead><tr>${figure.table.columns.map((column) => html`<th scope="col" ${column.numeric ? html`class="num"` : ''}>${column.label}</th>`)}</tr></thead>
        <tbody>${figure.table.rows.map((row) => html`<tr>${row.map((cell, index) => html`<td ${figure.table.columns[index]?.numeric ? html`class="num"` : ''}>${cell}</td>`)}</tr>`)}</tbody>
      </table></div>
    </details>
  </figure>`;
}

/** Horizontal grid lines and the value axis's labels at `ticks`. */
export function valueAxis(plot: Plot, ticks: readonly number[], y: (value: number) => number, label: (value: number) => string): SafeHtml {
  return html`${ticks.map((tick) => html`<line class="grid-line" x1="${plot.pad.left}" x2="${plot.width - plot.pad.right}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}"></line>
    <text x="${plot.pad.left - 6}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end">${label(tick)}</text>`)}`;
}

/** The baseline and the labels of a horizontal axis at `ticks`. */
export function horizontalAxis(plot: Plot, ticks: readonly number[], x: (value: number) => number, label: (value: number) => string): SafeHtml {
  const baseline = plot.height - plot.pad.bottom;
  return html`<line class="axis" x1="${plot.pad.left}" x2="${plot.width - plot.pad.right}" y1="${baseline}" y2="${baseline}"></line>
    ${ticks.map((tick) => html`<text x="${x(tick).toFixed(1)}" y="${baseline + 18}" text-anchor="middle">${label(tick)}</text>`)}`;
}
