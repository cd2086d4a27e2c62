import t from 'tap';
import { dayNumber } from '../../../services/accounts/src/web/views/charts/chart-kit.js';
import { evenSample, MAX_DRAWN_SALES, salesScatter, scatterLayout } from '../../../services/accounts/src/web/views/charts/sales-scatter.js';

// The sales scatter's geometry: each sale at its day and price, the daily median line through the
// days that have one, the axes in the currency, and the edge cases.

const sales = [
  { date: '2026-09-01', price: 100 },
  { date: '2026-09-01', price: 120 },
  { date: '2026-09-01', price: 140 },
  { date: '2026-09-03', price: 90 },
  { date: '2026-09-05', price: 150 },
  { date: '2026-09-05', price: 160 },
  { date: '2026-09-05', price: 170 },
];
const daily = [
  { date: '2026-09-01', counted: 3, median: 120 },
  { date: '2026-09-03', counted: 1, median: null },
  { date: '2026-09-05', counted: 3, median: 160 },
];

t.test('each sale at its day and price; the line through the daily medians', async (t) => {
  const layout = scatterLayout({ sales, daily });
  const left = layout.plot.pad.left;
  const right = layout.plot.width - layout.plot.pad.right;
  const first = dayNumber('2026-09-01');
  const dayX = (date: string) => left + ((dayNumber(date) - first + 0.5) / 5) * (right - left);
  for (const point of layout.points) t.equal(point.cx.toFixed(6), dayX(point.date).toFixed(6), `${point.date} at its day`);
  t.ok(layout.points.every((point) => point.cx > left && point.cx < right), 'no sale on the frame');
  t.equal(layout.y(layout.priceTicks[0]!), layout.plot.height - layout.plot.pad.bottom, 'the lowest price tick on the baseline');
  const byPrice = [...layout.points].sort((a, b) => a.price - b.price);
  t.ok(byPrice.every((point, index) => index === 0 || point.cy <= byPrice[index - 1]!.cy), 'a higher price is drawn higher');
  t.strictSame(layout.medians.map((point) => point.date), ['2026-09-01', '2026-09-05'], 'a day without a median breaks no line: it is left out');
  t.equal(layout.medians[0]!.y, layout.y(120));
  t.equal(layout.medians[1]!.x, dayX('2026-09-05'));
});

t.test('the figure: points, the line, date and currency axes, the table per day', async (t) => {
  const markup = salesScatter({ id: 'scatter', sales, daily, currency: 'GBP' }).value;
  t.equal((markup.match(/<circle class="sale-point"/g) ?? []).length, sales.length, 'a point per sale');
  t.match(markup, /<polyline class="median-line" points="[\d.]+,[\d.]+ [\d.]+,[\d.]+">/, 'the median line through two days');
  t.match(markup, />£100<\/text>/, 'prices in pounds on the axis');
  t.match(markup, />1 Sep<\/text>/, 'days on the time axis');
  t.match(markup, /<td\s*>2026-09-03<\/td><td class="num">1<\/td><td class="num">£90\.00<\/td><td class="num">£90\.00<\/td><td class="num">– \(fewer than 3\)<\/td>/, 'a day of one sale has no median');
  t.equal((markup.match(/<tr><td\s*>2026-09-0\d<\/td>/g) ?? []).length, 3, 'a row per day');
});

t.test('no sales, one sale, one day', async (t) => {
  t.match(salesScatter({ id: 'none', sales: [], daily: [], currency: 'USD' }).value, /No counted sales with a sold date to draw/);
  const one = scatterLayout({ sales: [{ date: '2026-09-02', price: 42 }], daily: [{ date: '2026-09-02', counted: 1, median: null }] });
  t.equal(one.points.length, 1);
  t.ok(Number.isFinite(one.points[0]!.cx) && Number.isFinite(one.points[0]!.cy), 'drawn somewhere real');
  t.equal(one.points[0]!.cx, (one.plot.pad.left + one.plot.width - one.plot.pad.right) / 2, 'in the middle of a one-day axis');
  t.strictSame(one.dayTicks, [dayNumber('2026-09-02')]);
  const markup = salesScatter({ id: 'one', sales: [{ date: '2026-09-02', price: 42 }], daily: [], currency: 'USD' }).value;
  t.match(markup, /1 counted sale on 2026-09-02/);
  t.notMatch(markup, /polyline/, 'no line without two medians');
});

t.test('an even sample: the count asked, in order, from first to near last; all when there are no more', async (t) => {
  const items = Array.from({ length: 10 }, (_, index) => index);
  t.strictSame(evenSample(items, 5), [0, 2, 4, 6, 8]);
  t.strictSame(evenSample(items, 3), [0, 3, 6]);
  t.strictSame(evenSample(items, 10), items);
  t.strictSame(evenSample(items, 20), items);
  t.strictSame(evenSample([], 4), []);
});

t.test('a job of thousands of sales: 2,000 points drawn, the table and the line over every sale', async (t) => {
  const many = Array.from({ length: 5000 }, (_, index) => ({ date: `2026-09-${String(1 + (index % 28)).padStart(2, '0')}`, price: 50 + (index % 97) }));
  const days = Array.from({ length: 28 }, (_, index) => ({ date: `2026-09-${String(1 + index).padStart(2, '0')}`, counted: many.filter((sale) => sale.date.endsWith(`-${String(1 + index).padStart(2, '0')}`)).length, median: 90 }));
  const markup = salesScatter({ id: 'many', sales: many, daily: days, currency: 'USD' }).value;
  t.equal((markup.match(/<circle class="sale-point"/g) ?? []).length, MAX_DRAWN_SALES, 'as many points as may be drawn');
  t.match(markup, /5,000 counted sales .*2,000 of them are drawn, evenly through them; the line and the table are over all\./);
  t.equal((markup.match(/<tr><td\s*>2026-09-\d\d<\/td>/g) ?? []).length, 28, 'a row per day, of every sale');
  t.match(markup, /<td\s*>2026-09-01<\/td><td class="num">179<\/td>/, 'each day counts all its sales');
  t.ok(markup.length < 400_000, `a page of bounded size (${markup.length} characters)`);
});
