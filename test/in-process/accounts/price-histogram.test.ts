import t from 'tap';
import { histogramBins, histogramLayout, priceHistogram } from '../../../services/accounts/src/web/views/charts/price-histogram.js';

// The price histogram's geometry (a pure function of the prices): every counted price in exactly one
// bin, the markers where their prices are on the axis, the axis in the currency, and the edge cases.

/** Prices drawn from a seeded generator: the same every run. */
function pricesOf(count: number, seed: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.round((20 + (state / 2 ** 31) * 480) * 100) / 100;
  });
}

t.test('bins of round edges cover every price exactly once, edges included', async (t) => {
  const cases = [pricesOf(47, 1), pricesOf(200, 2), [0.1, 0.2, 0.3, 0.7, 0.9], [10, 20, 30, 40, 50, 60], [199.99, 200, 200.01, 225, 250]];
  for (const prices of cases) {
    const { bins, step } = histogramBins(prices);
    t.equal(bins.reduce((sum, bin) => sum + bin.count, 0), prices.length, `${prices.length} prices, each counted once`);
    const holding = (price: number) => bins.filter((bin, index) => price >= bin.from && (price < bin.to || (index === bins.length - 1 && price === bin.to))).length;
    t.strictSame(prices.filter((price) => holding(price) !== 1), [], 'each price falls in one bin by the bins\' bounds');
    // Counting each price by the bin that holds it by definition gives the same counts.
    const expected = bins.map((bin, index) => prices.filter((price) => price >= bin.from && (price < bin.to || (index === bins.length - 1 && price === bin.to))).length);
    t.strictSame(bins.map((bin) => bin.count), expected, 'the counts are those of the bins\' bounds');
    t.ok(bins.every((bin, index) => index === 0 || bin.from === bins[index - 1]!.to), 'the bins are contiguous');
    t.ok(bins.every((bin) => Math.abs(bin.to - bin.from - step) < 1e-9), 'and of one width');
    t.ok([1, 2, 2.5, 5].some((factor) => Math.abs(step / 10 ** Math.floor(Math.log10(step)) - factor) < 1e-9), `a round width (${step})`);
    t.ok(bins.length >= 2 && bins.length <= 20, `${bins.length} bins`);
  }
  const { bins } = histogramBins([100, 120, 140], [60, 300]);
  t.ok(bins[0]!.from <= 60 && bins[bins.length - 1]!.to >= 300, 'the bins also cover the marked values');
  t.equal(bins.reduce((sum, bin) => sum + bin.count, 0), 3, 'which are not counted');
});

t.test('the median and the fences are drawn at their prices on the axis', async (t) => {
  const prices = [100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200];
  const layout = histogramLayout({ prices, median: 150, fences: { low: 80, high: 260 } });
  const { bins, x } = layout;
  const left = layout.plot.pad.left;
  const right = layout.plot.width - layout.plot.pad.right;
  t.equal(x(bins[0]!.from), left, 'the first edge at the left of the plot');
  t.equal(x(bins[bins.length - 1]!.to), right, 'the last at the right');
  const at = (price: number) => left + ((price - bins[0]!.from) / (bins[bins.length - 1]!.to - bins[0]!.from)) * (right - left);
  t.strictSame(
    layout.markers.map((marker) => [marker.kind, marker.value, Number(marker.x.toFixed(6))]),
    [
      ['median', 150, Number(at(150).toFixed(6))],
      ['low-fence', 80, Number(at(80).toFixed(6))],
      ['high-fence', 260, Number(at(260).toFixed(6))],
    ],
  );
  for (const bin of bins) {
    t.equal(bin.x, at(bin.from), `the bar from ${bin.from} starts at its price`);
    t.equal(bin.y + bin.height, layout.plot.height - layout.plot.pad.bottom, 'and stands on the baseline');
  }
  const tallest = bins.reduce((most, bin) => (bin.count > most.count ? bin : most));
  t.ok(tallest.y >= layout.plot.pad.top, 'the tallest bar within the plot');
  t.ok(layout.countTicks.every((tick) => Number.isInteger(tick)), 'whole counts on the count axis');
});

t.test('the figure: bars, markers, axis labels in the currency, the table', async (t) => {
  const markup = priceHistogram({ id: 'hist', prices: [1200, 1250, 1300, 1310, 1400, 1800], currency: 'EUR', median: 1305, fences: { low: 900, high: 2000 } }).value;
  t.equal((markup.match(/<rect class="bar-counted"/g) ?? []).length, (markup.match(/<tr><td class="num">/g) ?? []).length, 'a bar per row of the table');
  t.match(markup, /class="marker-median"/);
  t.equal((markup.match(/class="marker-fence"/g) ?? []).length, 2);
  t.match(markup, />€1,000<\/text>/, 'price labels in euros, whole amounts without cents');
  t.match(markup, /median €1,305\.00/, 'the median labelled in the currency');
  t.match(markup, /<summary>Show as a table<\/summary>/);
  t.match(markup, /Unit prices \(EUR\)/);
  const yen = priceHistogram({ id: 'yen', prices: [12000, 15000, 18000], currency: 'JPY', median: 15000, fences: null }).value;
  t.match(yen, /¥15,000/, 'yen without minor units');
  t.notMatch(yen, /marker-fence/, 'no fences, no fence lines');
});

t.test('no prices, and one price', async (t) => {
  t.match(priceHistogram({ id: 'none', prices: [], currency: 'USD', median: null, fences: null }).value, /No counted prices to draw/);
  const one = histogramLayout({ prices: [49.99], median: null, fences: null });
  t.equal(one.bins.reduce((sum, bin) => sum + bin.count, 0), 1, 'one price in one bin');
  t.ok(one.bins.length >= 1 && one.bins[0]!.from <= 49.99 && one.bins[one.bins.length - 1]!.to >= 49.99, 'around it');
  t.ok(one.bins.every((bin) => Number.isFinite(bin.x) && bin.width > 0), 'drawn with a width');
  t.match(priceHistogram({ id: 'one', prices: [49.99], currency: 'USD', median: null, fences: null }).value, /1 counted item/);
  const same = histogramBins([20, 20, 20, 20]);
  t.equal(same.bins.reduce((sum, bin) => sum + bin.count, 0), 4, 'equal prices, each once');
});
