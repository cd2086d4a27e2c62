import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { classifyListing, type Classification, type ListingFacts } from '@comps/shared/comps/classify';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { minorUnitsOf } from '@comps/shared/contract/money';
import { forAll, integerBetween, type Random } from '../../helpers/property-test.js';

const facts = (title: string, overrides: Partial<ListingFacts> = {}): ListingFacts => ({
  title,
  conditionText: null,
  price: { value: 90, currency: 'USD' },
  shipping: null,
  keyword: null,
  site: 'market.com',
  ...overrides,
});
const classify = (title: string, overrides: Partial<ListingFacts> = {}) => classifyListing(facts(title, overrides));
const kindAndUnits = (title: string, overrides: Partial<ListingFacts> = {}) => {
  const { kind, units } = classify(title, overrides);
  return { kind, units };
};

t.test('accessories: the thing before "for" is an accessory noun, packaging sold alone, a part fitting the vehicle searched', async (t) => {
  const keyword = 'nintendo switch oled';
  t.same(kindAndUnits('Nintendo Switch OLED Console with Case', { keyword }), { kind: 'single', units: 1 }, 'a case the console comes with');
  t.same(kindAndUnits('Case for Nintendo Switch OLED', { keyword }), { kind: 'accessory', units: 1 });
  for (const title of ['Box only Nintendo Switch OLED', 'Empty Box Nintendo Switch OLED', 'Leerkarton Nintendo Switch OLED', 'Boîte vide Nintendo Switch OLED', 'Scatola vuota Nintendo Switch OLED', 'Caja vacía Nintendo Switch OLED']) {
    t.equal(classify(title, { keyword }).kind, 'accessory', title);
  }
  for (const title of ['Hülle für iPhone 12', 'Coque pour iPhone 12', 'Custodia per iPhone 12', 'Funda para iPhone 12', 'Charger for iPhone 12', 'iPhone 12 Charger 20W USB-C']) {
    t.equal(classify(title, { keyword: 'iphone 12' }).kind, 'accessory', title);
  }
  t.equal(classify('Display Stand for PS5', { keyword: 'ps5' }).kind, 'accessory', 'a noun accessory only with its purpose');
  t.equal(classify('Lion Knights Battle Pack Stand', { keyword: 'lego' }).kind, 'single', 'the same noun without a purpose');
  t.equal(classify('Replacement Battery Canon EOS 250D LP-E17', { keyword: 'canon eos 250d' }).kind, 'accessory', 'a noun accessory as a replacement');
  t.equal(classify('Dell Latitude 5420 Laptop no charger', { keyword: 'laptop' }).kind, 'single', 'what the product lacks');
  t.equal(classify('Dell Chromebook 11.6 inch 4GB includes charger', { keyword: 'laptop' }).kind, 'single', 'what the product includes');
  t.equal(classify('Dell Latitude 5420 + Charger', { keyword: 'laptop' }).kind, 'single', 'what a "+" adds');
  t.equal(classify('Pink Floyd Animals (CD) Minor marks to Cover', { keyword: 'pink floyd cd' }).kind, 'single', 'a noun as a complement');
  t.equal(classify('Sony WH-1000XM4 Headphones Black, Used, with Case', { keyword: 'sony wh-1000xm4' }).kind, 'single');
  t.equal(classify('GENUINE SONY Ear Pads Foam Cushions for SONY WH-1000XM4 Headphones', { keyword: 'sony wh-1000xm4' }).kind, 'accessory');
  t.equal(classify('Écran ne s’allume pas pour pièces Nintendo Switch', { keyword: 'nintendo switch', site: 'market.fr' }).kind, 'single', '"pour pièces" is no purpose');

  t.equal(classify('Apple Watch Series 8 GPS 45mm Midnight Aluminum Case with Sport Band', { keyword: 'apple watch' }).kind, 'single', 'a watch’s case is its body');
  t.equal(classify('Aluminum Case for Apple Watch Series 8 45mm', { keyword: 'apple watch' }).kind, 'accessory');
  t.equal(classify('iPhone 12 Case Clear Silicone', { keyword: 'iphone case' }).kind, 'single', 'the product searched has an accessory noun in its name');
  t.equal(classify('LEGO Storage Box Red 4 Knobs', { keyword: 'lego storage box' }).kind, 'single');
  t.equal(classify('Thermostat Housing Cover for BMW E23 E24 E28 (For: BMW)', { keyword: 'bmw e28 parts' }).kind, 'single', 'a search for parts');

  const beetle = '2006 Volkswagen New Beetle';
  t.equal(classify('98-10 VW New Beetle Hardtop Driver Left Upper Door Window Motor (For: 2006 Volkswagen Beetle)', { keyword: beetle }).kind, 'accessory', 'a part fitting the vehicle searched');
  t.equal(classify('2006 Volkswagen Beetle-New 2.5 PZEV', { keyword: beetle }).kind, 'single', 'the vehicle');
  t.equal(classify('Injen SP3028P Cold Air Intake for 2010-12 VW Jetta (For: 2011 Volkswagen Jetta)', { keyword: '2011 Volkswagen Jetta cold air intake APR' }).kind, 'single', 'the part searched');
  t.equal(classify('VW New Beetle Top Engine Cover 1.6 Petrol 2006-2011', { keyword: beetle }).kind, 'accessory', 'a vehicle part without a fitment note');
});

t.test('lots: the markers of the contract, in every language, with their sizes', async (t) => {
  const lots: Array<[string, number | null]> = [
    ['Lot of 3 Nintendo DS Games', 3], ['3x Nintendo DS Games', 3], ['Nintendo DS Games x3', 3], ['Set of 3 Pyrex Bowls', 3], ['Bundle of 3 Funko Pops', 3],
    ['3 pcs Funko Pop Marvel', 3], ['Funko Pop Marvel 3pcs', 3], ['LEGO Konvolut Steine Platten Figuren', null], ['Lot de 3 jeux PS4', 3], ['Lotto di 3 giochi PS4', 3],
    ['Lote de 3 juegos PS4', 3], ['3 Stück LEGO Minifiguren', 3], ['5 unidades cable USB-C', 5], ['Investor Lot (4) 2024 Pokemon Jpn Vaporeon', 4],
    ['Warhammer 40k Necron Warriors (x10) New on frame', 10], ['Wargaming Bases Round 25mm Slot X 20', 20], ['Warhammer 40K Round 32mm Bases (5)', 5],
    ['30 Pokemon Cards Lot WOTC Holo', 30], ['Pokemon TCG Triumphant 4-Card Lot Gastly', 4], ['Pokemon TCG 50 Trainer Lot', 50], ['Pokemon card lot', null],
    ['Lot 10 cartes Pokémon françaises', 10], ['Huge Collection Bulk Lot of 600+ Pokemon Cards', 600], ['10 Chaos Space Marines Shadowspear', 10],
    ['LEGO 2x2 brick red 3003 x50', 50], ['4 x pneus Michelin 205/55 R16', 4],
  ];
  for (const [title, units] of lots) t.same(kindAndUnits(title, { keyword: title.includes('cable') ? 'cable usb-c' : null }), { kind: 'lot', units }, title);
});

t.test('not lots: catalogue numbers, model numbers, sizes, dimensions, disc counts and names', async (t) => {
  for (const title of [
    'Lot 7 Pokemon Base Set Charizard Holo', 'Nintendo 3DS XL Red', 'PS5 Disc Edition 825GB', 'Samsung 55" 4K UHD Smart TV', 'Xbox 360 Slim 250GB x360',
    'HP EliteBook X360 1030 G3', 'Sony WH-1000XM4 Black', 'LEGO 2x2 Brick Red', "'Salem's Lot (2024) Blu-Ray", 'Salem’s Lot Blu-ray', 'Pokemon TCG Lotad 005/094',
    'Vintage 80s Champion Reverse Weave Crewneck 2X', 'Champion Hoodie 3X Large', 'Lim. Edition 6x CD/DVD/BLUE-RAY Sealed Pink Floyd',
    '12 + 48x12 + 48x17 tooth odometer gear repair kit for BMW E24 E28', 'Adidas Bolso 15"x8"', 'Vintage Levi 501 Jeans 32x34', '88 Films PINOCCHIO 964 Blu-ray Sealed',
    'Pokémon TCG Crimson Invasion Theme Deck 60 Cards', 'Bausteine Hall of Armour | 560 Teile + 7 Figuren', 'LEGO Technic 42115 3696 pcs', '6 Pins Steering Angle Sensor',
    'Pokemon Card 151 Holo (Japanese)', 'Dell Latitude E5570 Laptop 2.60 GHZ + 8 GB', '2015 Pokemon Sceptile Primal Clash 9/160', 'Funko Pop 2-Pack Batman',
  ]) {
    t.same(kindAndUnits(title), { kind: 'single', units: 1 }, title);
  }
});

t.test('an accessory sold several at once is an accessory', async (t) => {
  t.same(kindAndUnits('Lot of 3 Chargers for iPhone 12', { keyword: 'iphone 12' }), { kind: 'accessory', units: 1 });
});

t.test('condition groups from the condition text of every site, and forParts from the title', async (t) => {
  const groups: Array<[string, Classification['condition']]> = [
    ['Brand New', 'new'], ['New (Other)', 'new'], ['Open Box', 'new'], ['Pre-Owned', 'used'], ['Like New', 'used'], ['Very Good - Refurbished', 'refurbished'],
    ['Certified - Refurbished', 'refurbished'], ['For parts or not working', 'forParts'], ['Parts Only', 'forParts'],
    ['Neu', 'new'], ['Neu: Sonstige (siehe Artikelbeschreibung)', 'new'], ['Gebraucht', 'used'], ['Wie neu', 'used'], ['Generalüberholt - Sehr gut', 'refurbished'], ['Als Ersatzteil / defekt', 'forParts'],
    ['Neuf', 'new'], ['Ouvert – jamais utilisé', 'new'], ['Occasion', 'used'], ['Très bon état', 'used'], ['Reconditionné par le vendeur', 'refurbished'], ['Pour pièces détachées ou ne fonctionne pas', 'forParts'],
    ['Nuovo', 'new'], ['Aperto - mai usato', 'new'], ['Usato', 'used'], ['Come nuovo', 'used'], ['Ricondizionato dal venditore', 'refurbished'], ['Per ricambi o non funzionante', 'forParts'],
    ['Nuevo', 'new'], ['Nuevo (otro)', 'new'], ['Usado', 'used'], ['De segunda mano', 'used'], ['Reacondicionado - Muy bueno', 'refurbished'], ['Para piezas o no funciona', 'forParts'],
    ['真新しい新品', 'new'], ['新品 (その他)', 'new'], ['中古品', 'used'], ['ジャンク品', 'forParts'],
    ['pre-owned', 'used'], ['NEU', 'new'], ['occasion - tres bon etat', 'used'], ['Collectible', null],
  ];
  for (const [conditionText, group] of groups) t.equal(classify('Sony WH-1000XM4 Headphones', { conditionText }).condition, group, conditionText);
  t.equal(classify('Sony WH-1000XM4 Headphones').condition, null, 'no condition text');

  const brokenTitles: Array<[string, MarketSite]> = [
    ['Sony WH-1000XM4 for parts or not working', 'market.com'], ['Sony WH-1000XM4 NOT WORKING', 'market.com'], ['Sony WH-1000XM4 broken hinge', 'market.co.uk'],
    ['Sony WH-1000XM4 spares or repair', 'market.co.uk'], ['Sony WH-1000XM4 sold as is', 'market.com'], ['Sony WH-1000XM4 As-Is', 'market.ca'],
    ['Sony WH-1000XM4 defekt', 'market.de'], ['Sony WH-1000XM4 für Bastler', 'market.de'], ['Sony WH-1000XM4 pour pièces', 'market.fr'], ['Sony WH-1000XM4 HS', 'market.fr'],
    ['Sony WH-1000XM4 per ricambi', 'market.it'], ['Sony WH-1000XM4 non funzionante', 'market.it'], ['Sony WH-1000XM4 para piezas', 'market.es'], ['Sony WH-1000XM4 no funciona', 'market.es'],
    ['BMW E28 OBC On Board Computer for Repair/parts', 'market.com'], ['BMW E28 RADIO CASSETTE DECK. PARTS ONLY', 'market.com'],
  ];
  for (const [title, site] of brokenTitles) t.equal(classify(title, { conditionText: 'Used', site }).condition, 'forParts', `${title} on ${site}`);
  t.equal(classify('2010 HS Undaunted Set Pokemon Card 60 Oddish', { conditionText: 'Pre-Owned' }).condition, 'used', '"HS" is French only');
  t.equal(classify('Thermostat Housing URO PARTS (For: BMW)', { conditionText: 'Brand New' }).condition, 'new', '"parts" alone is no defect');
  t.equal(classify('Pokemon Muk & Alolan Muk GX Unbroken Bonds', { conditionText: 'Pre-Owned' }).condition, 'used');
});

t.test('units and prices: per unit, rounded to the minor unit; landed only with known shipping in the same currency', async (t) => {
  t.same(classify('Lot of 3 Nintendo DS Games', { price: { value: 100, currency: 'USD' }, shipping: { value: 5, currency: 'USD' } }), {
    kind: 'lot', condition: null, units: 3, unitPrice: { value: 33.33, currency: 'USD' }, landedUnitPrice: { value: 35, currency: 'USD' },
  });
  t.same(classify('Lot of 3 Nintendo DS Games', { price: { value: 1000, currency: 'JPY' }, shipping: { value: 0, currency: 'JPY' } }).unitPrice, { value: 333, currency: 'JPY' });
  const free = classify('Nintendo DS Lite', { shipping: { value: 0, currency: 'USD' } });
  t.same(free.landedUnitPrice, free.unitPrice, 'free shipping: landed equals unit');
  t.equal(classify('Nintendo DS Lite', { shipping: null }).landedUnitPrice, null, 'unknown shipping');
  t.equal(classify('Nintendo DS Lite', { shipping: { value: 4, currency: 'EUR' } }).landedUnitPrice, null, 'shipping in another currency');
  t.same(classify('Nintendo DS Lite', { price: null, shipping: { value: 4, currency: 'USD' } }), { kind: 'single', condition: null, units: 1, unitPrice: null, landedUnitPrice: null });
  t.same(classify('Pokemon card lot', { shipping: { value: 4, currency: 'USD' } }), { kind: 'lot', condition: null, units: null, unitPrice: null, landedUnitPrice: null }, 'a lot stating no size');
});

const LOT_PHRASINGS: ReadonlyArray<(n: number, product: string) => string> = [
  (n, product) => `Lot of ${n} ${product}`, (n, product) => `${n}x ${product}`, (n, product) => `${product} x${n}`, (n, product) => `Set of ${n} ${product}`,
  (n, product) => `Bundle of ${n} ${product}`, (n, product) => `${n} pcs ${product}`, (n, product) => `Lot de ${n} ${product}`, (n, product) => `Lotto di ${n} ${product}`,
  (n, product) => `Lote de ${n} ${product}`, (n, product) => `${n} Stück ${product}`, (n, product) => `${product} (x${n})`, (n, product) => `${product} Lot (${n})`,
];
const PRODUCTS = ['Nintendo DS Games', 'Pokemon Cards', 'LEGO Minifiguren', 'Funko Pop Marvel', 'Warhammer 40k Intercessors'];
const pick = <T>(random: Random, list: readonly T[]): T => list[integerBetween(random, 0, list.length - 1)]!;
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY'];

t.test('properties: a lot marker with a stated size gives that many units; prices per unit add up', async (t) => {
  forAll(300, (random) => {
    const n = integerBetween(random, 2, 99);
    const title = pick(random, LOT_PHRASINGS)(n, pick(random, PRODUCTS));
    const { kind, units } = classify(title);
    if (kind !== 'lot' || units !== n) throw new Error(`${title}: ${kind} of ${units}`);
  });
  forAll(300, (random) => {
    const currency = pick(random, CURRENCIES);
    const minorUnit = 10 ** -minorUnitsOf(currency);
    const price = { value: integerBetween(random, 1, 500_000) * minorUnit, currency };
    const shipping = { value: integerBetween(random, 0, 5_000) * minorUnit, currency };
    const n = integerBetween(random, 2, 50);
    const result = classify(pick(random, LOT_PHRASINGS)(n, pick(random, PRODUCTS)), { price, shipping });
    const unit = result.unitPrice!.value;
    const landed = result.landedUnitPrice!.value;
    // Rounding each unit to the minor unit moves the total by at most half a minor unit per unit.
    if (Math.abs(unit * n - price.value) > (n * minorUnit) / 2 + 1e-9) throw new Error(`${n} × ${unit} is not ${price.value} ${currency}`);
    if (landed < unit) throw new Error(`landed ${landed} below unit ${unit} with shipping ${shipping.value}`);
    if (result.unitPrice!.currency !== currency || result.landedUnitPrice!.currency !== currency) throw new Error('currency changed');
  });
});

// --- Precision and recall on hand-labelled titles -------------------------------------------------

interface LabelledTitle {
  site: MarketSite;
  title: string;
  conditionText: string | null;
  keyword: string | null;
  kind: string;
  units: number | null;
  condition: string | null;
  /** The language of the page's interface (the titles of market.com's Spanish interface are Spanish). */
  language: string;
}

function readLabelledTitles(file: string): LabelledTitle[] {
  const [header, ...lines] = readFileSync(new URL(file, import.meta.url), 'utf8').trimEnd().split('\n');
  const columns = header!.split('\t');
  return lines.map((line) => {
    const cells = Object.fromEntries(line.split('\t').map((cell, index) => [columns[index]!, cell]));
    return {
      site: cells.site as MarketSite,
      title: cells.title!,
      conditionText: cells.conditionText || null,
      keyword: cells.keyword || null,
      kind: cells.kind!,
      units: cells.units ? Number(cells.units) : null,
      condition: cells.condition || null,
      language: cells.language!,
    };
  });
}

interface Tally {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}
const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const precisionOf = ({ truePositives, falsePositives }: Tally) => ratio(truePositives, truePositives + falsePositives);
const recallOf = ({ truePositives, falseNegatives }: Tally) => ratio(truePositives, truePositives + falseNegatives);
const shown = (value: number | null) => (value === null ? '   —' : value.toFixed(2).padStart(4));

const CLASSES: ReadonlyArray<{ name: string; labelled: (row: LabelledTitle) => boolean; found: (result: Classification) => boolean }> = [
  { name: 'single', labelled: (row) => row.kind === 'single', found: (result) => result.kind === 'single' },
  { name: 'lot', labelled: (row) => row.kind === 'lot', found: (result) => result.kind === 'lot' },
  { name: 'accessory', labelled: (row) => row.kind === 'accessory', found: (result) => result.kind === 'accessory' },
  { name: 'forParts', labelled: (row) => row.condition === 'forParts', found: (result) => result.condition === 'forParts' },
];

/** Per class and language (and "all"): the tally of each, and a printable table with the sizes of the labelled sets. */
function measure(rows: readonly LabelledTitle[]) {
  const results = rows.map((row) => classifyListing({ title: row.title, conditionText: row.conditionText, keyword: row.keyword, site: row.site, price: null, shipping: null }));
  const languages = [...new Set(rows.map((row) => row.language))].sort();
  const tallyOf = (name: string, language: string): Tally => {
    const { labelled, found } = CLASSES.find((each) => each.name === name)!;
    const tally = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
    rows.forEach((row, index) => {
      if (language !== 'all' && row.language !== language) return;
      const isLabelled = labelled(row);
      const isFound = found(results[index]!);
      if (isLabelled && isFound) tally.truePositives += 1;
      else if (isFound) tally.falsePositives += 1;
      else if (isLabelled) tally.falseNegatives += 1;
    });
    return tally;
  };
  const lines = ['class      language  labelled  precision  recall'];
  for (const { name } of CLASSES) {
    for (const language of [...languages, 'all']) {
      const tally = tallyOf(name, language);
      const labelled = tally.truePositives + tally.falseNegatives;
      lines.push(`${name.padEnd(10)} ${language.padEnd(9)} ${String(labelled).padStart(8)}  ${shown(precisionOf(tally)).padStart(9)}  ${shown(recallOf(tally)).padStart(6)}`);
    }
  }
  const lots = rows.map((row, index) => ({ row, result: results[index]! })).filter(({ row, result }) => row.kind === 'lot' && result.kind === 'lot');
  const unitsRight = lots.filter(({ row, result }) => row.units === result.units).length;
  lines.push(`lots found with the labelled units: ${unitsRight} of ${lots.length}`);
  const conditionsRight = rows.filter((row, index) => row.condition === results[index]!.condition).length;
  lines.push(`condition group as labelled: ${conditionsRight} of ${rows.length}`);
  const sizes = ['rows       ' + [...languages, 'all'].map((language) => language.padStart(5)).join('')];
  for (const key of ['single', 'lot', 'accessory', 'new', 'used', 'refurbished', 'forParts', '(none)']) {
    const count = (language: string) =>
      rows.filter((row) => (language === 'all' || row.language === language) && (row.kind === key || (row.condition ?? '(none)') === key)).length;
    sizes.push(key.padEnd(11) + [...languages, 'all'].map((language) => String(count(language)).padStart(5)).join(''));
  }
  return { tallyOf, table: lines.join('\n'), sizes: sizes.join('\n') };
}

const GOALS = { precision: 0.95, recall: 0.9, forPartsRecall: 0.95 };

function assertGoals(t: Test, tallyOf: (name: string, language: string) => Tally) {
  for (const name of ['lot', 'accessory']) {
    t.ok(precisionOf(tallyOf(name, 'all'))! >= GOALS.precision, `${name} precision ≥ ${GOALS.precision}`);
    t.ok(recallOf(tallyOf(name, 'all'))! >= GOALS.recall, `${name} recall ≥ ${GOALS.recall}`);
  }
  t.ok(recallOf(tallyOf('forParts', 'all'))! >= GOALS.forPartsRecall, `forParts recall ≥ ${GOALS.forPartsRecall}`);
}

t.test('precision and recall on real titles of the saved pages, labelled by hand', async (t) => {
  const rows = readLabelledTitles('./labelled-titles.tsv');
  t.ok(rows.length >= 300, `${rows.length} labelled titles`);
  const { tallyOf, table, sizes } = measure(rows);
  t.comment(`real titles (labelled-titles.tsv)\n${table}\n\nlabelled rows by kind and condition group\n${sizes}`);
  assertGoals(t, tallyOf);
});

t.test('precision and recall on hand-written French, Italian, Spanish and German titles (reported apart)', async (t) => {
  const rows = readLabelledTitles('./labelled-titles-constructed.tsv');
  for (const language of ['fr', 'it', 'es']) t.ok(rows.filter((row) => row.language === language).length >= 20, `at least 20 ${language} titles`);
  const { tallyOf, table, sizes } = measure(rows);
  t.comment(`constructed titles (labelled-titles-constructed.tsv)\n${table}\n\nlabelled rows by kind and condition group\n${sizes}`);
  assertGoals(t, tallyOf);
});
