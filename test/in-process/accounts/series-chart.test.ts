import t from 'tap';
import type { SeriesEntry } from '@comps/shared/contract/tracked-search';
import { dayNumber } from '../../../services/accounts/src/web/views/charts/chart-kit.js';
import { nextIntervalStart, SERIES_PLOT, SERIES_X_INSET, seriesChart, seriesGeometry } from '../../../services/accounts/src/web/views/charts/series-chart.js';

// The price series chart of a tracked search's page, drawn from the stats' `series` (pure: no I/O).

const entry = (start: string, median: number | null, spread = 20, counted = 12): SeriesEntry =>
  median === null ? { start, counted: 2, median: null, p25: null, p75: null } : { start, counted, median, p25: median - spread, p75: median + spread };

/** The points of a path's `d` (M and L commands), as [x, y]. */
function pointsOf(d: string): Array<[number, number]> {
  return [...d.matchAll(/[ML]([\d.]+) ([\d.]+)/g)].map((match) => [Number(match[1]), Number(match[2])]);
}
const pathsOf = (markup: string, cssClass: string) => [...markup.matchAll(new RegExp(`<path class="${cssClass}" d="([^"]+)"`, 'g'))].map((match) => match[1]!);
/** The labels of the SVG's text elements. */
const labelsOf = (markup: string) => [...markup.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!);

t.test('the band runs along the 75th percentile and back along the 25th, around the median line', async (t) => {
  const series = [entry('2026-10-26', 200), entry('2026-11-02', 210, 30), entry('2026-11-09', 190, 10), entry('2026-11-16', 230)];
  const geometry = seriesGeometry(series, 'week');
  t.equal(geometry.segments.length, 1, 'four weeks in a row: one line');
  const segment = geometry.segments[0]!;
  t.equal(segment.length, 4);
  for (const point of segment) {
    t.ok(point.p75 < point.median && point.median < point.p25, `${point.entry.start}: the 75th above the median above the 25th`);
    t.equal(point.median, geometry.y(point.entry.median!));
  }
  t.strictSame(segment.map((point) => point.x), series.map((item) => geometry.x(dayNumber(item.start))), 'each at its week');
  t.equal(segment[0]!.x, SERIES_PLOT.pad.left + SERIES_X_INSET, 'the first week at the left of the plot');
  t.equal(segment[3]!.x, SERIES_PLOT.width - SERIES_PLOT.pad.right, 'the last at the right edge');

  const markup = seriesChart({ series, interval: 'week', currency: 'USD' }).value;
  const [band] = pathsOf(markup, 'series-band');
  const [line] = pathsOf(markup, 'series-median');
  t.ok(band && line, 'a band and a line');
  const bandPoints = pointsOf(band!);
  t.equal(bandPoints.length, 8, 'four points along the top, four back along the bottom');
  const round = (value: number) => Number(value.toFixed(1));
  t.strictSame(bandPoints.slice(0, 4), segment.map((point) => [round(point.x), round(point.p75)]), 'the top edge is the 75th percentile');
  t.strictSame(bandPoints.slice(4), [...segment].reverse().map((point) => [round(point.x), round(point.p25)]), 'the bottom edge is the 25th, back');
  t.match(band, / Z$/, 'closed');
  t.strictSame(pointsOf(line!), segment.map((point) => [round(point.x), round(point.median)]), 'the line through the medians');
  t.match(markup, /<summary>Show as a table<\/summary>/, 'the same numbers as a table');
  t.match(markup, /<td >2026-11-09<\/td><td class="num">12<\/td><td class="num">\$180\.00<\/td><td class="num">\$190\.00<\/td><td class="num">\$200\.00<\/td>/, "a week's row: counted, 25th, median, 75th");
  t.match(markup, /The latest median is \$230\.00 \(week from 2026-11-16, 12 sales counted\)/, 'the summary says the latest median');
});

t.test('an interval without figures, or without sales, is a gap in the line, never a zero', async (t) => {
  const series = [entry('2026-11-02', 200), entry('2026-11-09', null), entry('2026-11-16', 210), entry('2026-11-23', 220), entry('2026-12-07', 215)];
  const geometry = seriesGeometry(series, 'week');
  t.strictSame(
    geometry.segments.map((segment) => segment.map((point) => point.entry.start)),
    [['2026-11-02'], ['2026-11-16', '2026-11-23'], ['2026-12-07']],
    'broken at the week without figures and at the week with no sale (30 Nov is missing)',
  );
  t.ok(geometry.valueTicks![0]! > 0, `the price axis starts near the prices (${geometry.valueTicks![0]}), not at a zero drawn for the gap`);

  const markup = seriesChart({ series, interval: 'week', currency: 'USD' }).value;
  const lines = pathsOf(markup, 'series-median');
  t.equal(lines.length, 1, 'one line: the only run of two weeks');
  t.equal(pointsOf(lines[0]!).length, 2);
  t.equal((markup.match(/<circle class="series-point"/g) ?? []).length, 2, 'the weeks alone are dots');
  const bottom = SERIES_PLOT.height - SERIES_PLOT.pad.bottom;
  const drawnYs = [...pathsOf(markup, 'series-band'), ...lines].flatMap((d) => pointsOf(d).map(([, y]) => y));
  t.ok(drawnYs.every((y) => y < bottom), 'nothing drawn down at the axis');
  t.match(markup, /<td >2026-11-09<\/td><td class="num">2<\/td><td class="num">–<\/td><td class="num">–<\/td><td class="num">–<\/td>/, 'the table says – for the week without figures');
  t.notMatch(markup, /\$0\.00/, 'no zero price anywhere');

  t.equal(nextIntervalStart('2026-12-31', 'day'), '2027-01-01');
  t.equal(nextIntervalStart('2026-12-28', 'week'), '2027-01-04');
  t.equal(nextIntervalStart('2026-12-01', 'month'), '2027-01-01');
  const months = seriesGeometry([entry('2026-01-01', 100), entry('2026-02-01', 110), entry('2026-04-01', 120)], 'month');
  t.equal(months.segments.length, 2, 'months: March missing is a gap');
});

t.test("axes read in the site's currency, and dates as days or months", async (t) => {
  const series = [entry('2026-11-16', 1200, 150), entry('2026-11-17', 1250, 100), entry('2026-11-18', 1190, 120)];
  const dollars = labelsOf(seriesChart({ series, interval: 'day', currency: 'USD' }).value);
  const priceLabels = dollars.filter((label) => /\d/.test(label) && /^\D/.test(label));
  t.ok(priceLabels.length >= 3, `price labels: ${priceLabels.join(', ')}`);
  t.ok(priceLabels.every((label) => /^\$\d{1,3}(,\d{3})*$/.test(label)), 'whole dollars with a thousands separator');
  t.ok(dollars.includes('16 Nov') && dollars.includes('18 Nov'), `date labels: ${dollars.join(' | ')}`);

  const euros = labelsOf(seriesChart({ series, interval: 'day', currency: 'EUR' }).value);
  t.ok(euros.some((label) => /^€1,[0-9]{3}$/.test(label)), 'euros on a German site');
  const pounds = labelsOf(seriesChart({ series: [entry('2026-11-16', 3.5, 1)], interval: 'day', currency: 'GBP' }).value);
  t.ok(pounds.some((label) => /^£\d\.\d{2}$/.test(label)), 'small amounts keep their pence');

  const monthly = seriesChart({ series: [entry('2026-09-01', 100), entry('2026-10-01', 110), entry('2026-11-01', 105)], interval: 'month', currency: 'USD' }).value;
  t.ok(['Sep 2026', 'Oct 2026', 'Nov 2026'].every((label) => labelsOf(monthly).includes(label)), 'months as Sep 2026');
  const years = seriesGeometry(Array.from({ length: 60 }, (_, index) => entry(new Date(Date.UTC(2025, 0, 6 + 7 * index)).toISOString().slice(0, 10), 100 + index)), 'week');
  t.ok(years.byMonth, 'weeks over more than half a year are labelled by month');
  t.ok(years.dateTicks.length <= 5, 'a few date labels, not one per week');
});

t.test('one interval: a dot with its band as a bar, in the middle', async (t) => {
  const series = [entry('2026-11-16', 229, 17)];
  const geometry = seriesGeometry(series, 'week');
  t.equal(geometry.segments.length, 1);
  const point = geometry.segments[0]![0]!;
  t.equal(point.x, (SERIES_PLOT.pad.left + SERIES_X_INSET + SERIES_PLOT.width - SERIES_PLOT.pad.right) / 2, 'in the middle of the plot');
  t.ok(point.p75 < point.median && point.median < point.p25);
  t.strictSame(geometry.dateTicks, [dayNumber('2026-11-16')], 'its date labelled');

  const markup = seriesChart({ series, interval: 'week', currency: 'USD' }).value;
  t.equal(pathsOf(markup, 'series-median').length, 0, 'no line of one point');
  const bar = /<rect class="series-band" x="[\d.]+" y="([\d.]+)" width="8" height="([\d.]+)"><\/rect>/.exec(markup);
  t.ok(bar, 'the band as a bar');
  t.equal(Number(bar![1]), Number(point.p75.toFixed(1)), 'from the 75th percentile');
  t.equal(Number(bar![2]), Number((point.p25 - point.p75).toFixed(1)), 'down to the 25th');
  t.match(markup, new RegExp(`<circle class="series-point" cx="${point.x.toFixed(1)}" cy="${point.median.toFixed(1)}"`), 'the median as a dot');
  t.match(markup, /1 week with sales, 2026-11-16 to 2026-11-16/);
});

t.test('no sale: a sentence, not an empty chart; sales without figures: the axes and why nothing is drawn', async (t) => {
  const empty = seriesChart({ series: [], interval: 'week', currency: 'USD' }).value;
  t.notMatch(empty, /<svg/, 'no chart');
  t.match(empty, /No sales in this period yet/);

  const markup = seriesChart({ series: [entry('2026-11-09', null), entry('2026-11-16', null)], interval: 'week', currency: 'USD' }).value;
  t.match(markup, /<svg/);
  t.notMatch(markup, /class="series-(band|median|point)"/, 'nothing drawn');
  t.notMatch(markup, /class="grid-line"/, 'no price axis without prices');
  t.match(markup, /<text class="series-none"[^>]*>Too few sales for a median<\/text>/, 'the chart says why it is empty');
  t.match(markup, /No week has the 3 counted sales a median needs/, 'the summary says so too');
  t.equal((markup.match(/<tr><td /g) ?? []).length, 2, 'the table still lists both weeks');
});
