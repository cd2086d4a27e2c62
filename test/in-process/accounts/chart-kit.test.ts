import t from 'tap';
import { formatMoneyTick, niceTicks } from '../../../services/accounts/src/web/views/charts/chart-kit.js';
import { histogramLayout, isNearPrices, priceHistogram } from '../../../services/accounts/src/web/views/charts/price-histogram.js';
import { forAll, type Random } from '../../helpers/property-test.js';

const ROUND_FACTORS = [1, 2, 2.5, 5];

/** The reference: a step is round when it is 1, 2, 2.5 or 5 times a power of ten. */
function isRound(step: number): boolean {
  const power = 10 ** Math.floor(Math.log10(step) + 1e-9);
  return ROUND_FACTORS.some((factor) => Math.abs(step - factor * power) <= power * 1e-9);
}

const priceLike = (random: Random) => Number((10 ** (random() * 6 - 1)).toFixed(2));

t.test('niceTicks: for any range and count, finite round ticks covering it, in at most count steps', async (t) => {
  let checked = 0;
  forAll(3000, (random) => {
    const a = priceLike(random);
    const b = random() < 0.1 ? a : priceLike(random);
    const count = 2 + Math.floor(random() * 10);
    const { lo, hi, ticks } = niceTicks(Math.min(a, b), Math.max(a, b), count);
    const label = `niceTicks(${Math.min(a, b)}, ${Math.max(a, b)}, ${count}) = ${JSON.stringify({ lo, hi, ticks })}`;
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && ticks.length >= 2)) throw new Error(`not finite or too few: ${label}`);
    if (!(lo <= Math.min(a, b) && hi >= Math.max(a, b))) throw new Error(`does not cover: ${label}`);
    if (ticks.length - 1 > count) throw new Error(`more than ${count} steps: ${label}`);
    const step = ticks[1]! - ticks[0]!;
    if (!isRound(step)) throw new Error(`step ${step} not round: ${label}`);
    checked += 1;
  });
  t.equal(checked, 3000);
  // The ranges the review found without a step (the candidates stopped at ten times the power).
  const beyond = niceTicks(1, 40.6, 4);
  t.ok(beyond.ticks.length >= 2 && beyond.lo <= 1 && beyond.hi >= 40.6, `1 to 40.6 in 4: ${beyond.ticks.join(', ')}`);
});

t.test('axis labels: whole amounts without cents, the thousands of a zero-decimal currency kept', async (t) => {
  t.equal(formatMoneyTick(1200, 'USD'), '$1,200');
  t.equal(formatMoneyTick(2.5, 'USD'), '$2.50');
  t.equal(formatMoneyTick(50, 'EUR'), '€50');
  t.equal(formatMoneyTick(1000, 'JPY'), '¥1,000');
  t.equal(formatMoneyTick(20000, 'JPY'), '¥20,000');
});

t.test('the histogram draws any set of prices; a fence far from every price is left off the axis, and said', async (t) => {
  const markup = priceHistogram({ id: 'h', prices: [83.02, 131.21, 92.67], currency: 'USD', median: 92.67, fences: null }).value;
  t.match(markup, /class="bar-counted"/, 'three prices the review found to crash it are drawn');
  forAll(500, (random) => {
    const prices = Array.from({ length: 1 + Math.floor(random() * 60) }, () => priceLike(random));
    const layout = histogramLayout({ prices, median: prices[0]!, fences: null });
    const inBins = layout.bins.reduce((sum, bin) => sum + bin.count, 0);
    if (inBins !== prices.length) throw new Error(`${inBins} of ${prices.length} prices in the bins`);
    if (layout.bins.some((bin) => !Number.isFinite(bin.x) || !Number.isFinite(bin.width))) throw new Error('a bin off the plot');
  });
  t.ok(isNearPrices(35, [50, 150]) && !isNearPrices(269, [50, 150]), 'within a span of the prices, or not');
  const far = histogramLayout({ prices: [50, 80, 100, 120, 150], median: 100, fences: { low: 35, high: 269 } });
  t.strictSame(far.markers.map((marker) => marker.kind), ['median', 'low-fence'], 'the far fence is not drawn');
  t.ok(far.bins[far.bins.length - 1]!.to < 269, 'and does not stretch the axis');
  const said = priceHistogram({ id: 'f', prices: [50, 80, 100, 120, 150], currency: 'USD', median: 100, fences: { low: 35, high: 269 } }).value;
  t.match(said, /\$269\.00/, 'the summary still gives it');
  t.match(said, /a fence far from every price is not drawn/);
});
