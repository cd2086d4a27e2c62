import t from 'tap';
import { isDeepStrictEqual } from 'node:util';
import type { StatsItem } from '@comps/shared/comps/statistics';
import { decodeStatsItems, encodeStatsItem } from '../../../services/jobs/src/jobs/stats-item-column.js';
import { forAll, integerBetween, type Random } from '../../helpers/property-test.js';

// A job page's statistics inputs, stored as one array of compact tuples: what is decoded is what was
// encoded, for every kind of item (no price, a range, a lot without a size, another currency, …).

const pick = <T>(random: Random, values: readonly T[]): T => values[integerBetween(random, 0, values.length - 1)]!;

function randomItem(random: Random): StatsItem {
  const currency = pick(random, ['USD', 'EUR', 'JPY']);
  const priced = random() < 0.9;
  const value = Math.round(random() * 50_000) / 100;
  const kind = pick(random, ['single', 'lot', 'accessory'] as const);
  const units = kind === 'lot' ? pick(random, [null, 2, 3, 10]) : 1;
  const money = (amount: number) => ({ value: amount, currency });
  const unitPrice = priced && units ? money(Math.round((value / units) * 100) / 100) : null;
  return {
    price: priced ? money(value) : null,
    priceRange: random() < 0.05,
    looseMatch: random() < 0.1,
    kind,
    condition: pick(random, [null, 'new', 'used', 'refurbished', 'forParts'] as const),
    units,
    unitPrice,
    landedUnitPrice: unitPrice && random() < 0.7 ? money(unitPrice.value + 4.99) : null,
    bestOfferAccepted: random() < 0.1,
    buyingFormat: pick(random, [null, 'auction', 'buyItNow'] as const),
    soldDate: random() < 0.9 ? `2026-${String(integerBetween(random, 1, 12)).padStart(2, '0')}-${String(integerBetween(random, 1, 28)).padStart(2, '0')}` : null,
  };
}

t.test('a page of items decodes to exactly what was encoded', async (t) => {
  forAll(200, (random) => {
    const items = Array.from({ length: integerBetween(random, 0, 30) }, () => randomItem(random));
    const decoded = decodeStatsItems(`[${items.map(encodeStatsItem).join(',')}]`);
    if (!isDeepStrictEqual(decoded, items)) throw new Error(`decoded ${JSON.stringify(decoded)}\nencoded ${JSON.stringify(items)}`);
  });
  t.pass('200 random pages round-trip');
});

t.test('the tuple takes less than half the bytes of the object it stands for', async (t) => {
  const item = randomItem(() => 0.5);
  t.ok(encodeStatsItem(item).length * 2 < JSON.stringify(item).length, `${encodeStatsItem(item).length} bytes against ${JSON.stringify(item).length}`);
});
