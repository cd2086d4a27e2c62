import t from 'tap';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { parseAmount, parseCompactCount, parsePrice } from '@comps/shared/market/parse/money';
import { normalizeRow } from '@comps/shared/market/parse/normalize-row';
import type { RawRow } from '@comps/shared/market/parse/raw-row';
import { parseSearchPage } from '@comps/shared/market/parse/search-page';
import { isoDate, parseLocalizedDate, parseSoldCaption } from '@comps/shared/market/parse/sold-date';
import * as vocabulary from '@comps/shared/market/parse/vocabulary';

t.test('prices and currencies', async (t) => {
  const cases: Array<[string, MarketSite, number | null, string | null, boolean?]> = [
    ['$1,234.56', 'market.com', 1234.56, 'USD'],
    ['US $12.00', 'market.ca', 12, 'USD'],
    ['US $12.00', 'market.co.uk', 12, 'USD'],
    ['C $12.50', 'market.ca', 12.5, 'CAD'],
    ['C $12.50', 'market.com', 12.5, 'CAD'],
    ['$12.50', 'market.ca', 12.5, 'CAD'],
    ['AU $1,234.00', 'market.com.au', 1234, 'AUD'],
    ['$9.95', 'market.com.au', 9.95, 'AUD'],
    ['$20.00', 'market.co.uk', null, null],
    ['$20.00', 'market.de', null, null],
    ['£4.49', 'market.co.uk', 4.49, 'GBP'],
    ['£4.49', 'market.com', 4.49, 'GBP'],
    ['EUR 1.234,56', 'market.de', 1234.56, 'EUR'],
    ['EUR 13,00', 'market.de', 13, 'EUR'],
    ['EUR 3,500.00', 'market.com', 3500, 'EUR'],
    ['1.234,56 €', 'market.fr', 1234.56, 'EUR'],
    ['12,50 EUR', 'market.it', 12.5, 'EUR'],
    ['1\u202f234,56 EUR', 'market.fr', 1234.56, 'EUR'],
    ['8,50 EUR', 'market.fr', 8.5, 'EUR'],
    ['6,314 円', 'market.com', 6314, 'JPY'],
    ['¥1,234', 'market.com', 1234, 'JPY'],
    ['S/. 44.38', 'market.com', 44.38, 'PEN'],
    ['EUR 1.300', 'market.de', 1300, 'EUR'],
    ['GBP 10.00', 'market.com', 10, 'GBP'],
    ['KRW129,680.08', 'market.com', 129680, 'KRW'],
    ['KRW 7,500', 'market.com', 7500, 'KRW'],
    ['KRW129.68', 'market.com', 130, 'KRW'],
    ['EUR13,00', 'market.de', 13, 'EUR'],
    ['GBP4.49', 'market.com', 4.49, 'GBP'],
    ['Tap item to see current price', 'market.com', null, null],
    ['12,50', 'market.de', null, null],
  ];
  for (const [text, site, value, currency] of cases) {
    const parsed = parsePrice(text, site);
    t.strictSame(parsed ? [parsed.money.value, parsed.money.currency] : [null, null], [value, currency], `${text} on ${site}`);
  }
});

t.test('ranges: the lower end, marked as a range', async (t) => {
  t.strictSame(parsePrice('EUR 13,00 bis EUR 20,00', 'market.de'), { money: { value: 13, currency: 'EUR' }, isRange: true });
  t.strictSame(parsePrice('$45.49 to $50.77', 'market.com'), { money: { value: 45.49, currency: 'USD' }, isRange: true });
  t.strictSame(parsePrice('£0.99 to £1.99', 'market.co.uk'), { money: { value: 0.99, currency: 'GBP' }, isRange: true });
  t.strictSame(parsePrice('+$9.95 delivery by Sat, Nov. 1', 'market.com', { single: true }), { money: { value: 9.95, currency: 'USD' }, isRange: false });
  t.strictSame(parsePrice('KRW1,711.13 ~ KRW68,445.28', 'market.com'), { money: { value: 1711, currency: 'KRW' }, isRange: true });
});

t.test('amounts: the decimal separator read from the number', async (t) => {
  const cases: Array<[string, number, number]> = [
    ['1,234.56', 2, 1234.56],
    ['1.234,56', 2, 1234.56],
    ['12,5', 2, 12.5],
    ['1.300', 2, 1300],
    ['1,000,000', 2, 1000000],
    ['6,314', 0, 6314],
    ['129,680.08', 0, 129680],
    ['129.68', 0, 130],
    ['99.999', 2, 99999],
    ['0.99', 2, 0.99],
    ['10.005', 2, 10005],
    ['12.345,678', 2, 12345.68],
  ];
  for (const [raw, minor, value] of cases) t.equal(parseAmount(raw, minor), value, raw);
  // Plain amounts take a shortcut; with a no-break space after them (which the reading drops) they take the general
  // reading, the reference. Every length of digits before and after a point, every minor unit.
  const differing: string[] = [];
  let checked = 0;
  for (let whole = 0; whole <= 17; whole += 1) {
    for (let decimals = -1; decimals <= 17; decimals += 1) {
      for (let seed = 0; seed < 4; seed += 1) {
        const digits = (length: number, from: number) => Array.from({ length }, (_, i) => String((from * 7 + i * 3 + seed) % 10)).join('');
        const raw = `${whole === 0 ? '' : digits(whole, whole)}${decimals === -1 ? '' : `.${digits(decimals, decimals + 5)}`}`;
        for (const minor of [0, 2]) {
          checked += 1;
          if (!Object.is(parseAmount(raw, minor), parseAmount(`${raw}\u00a0`, minor))) differing.push(`${raw} (${minor})`);
        }
      }
    }
  }
  t.strictSame(differing, [], `${checked} plain amounts read as the general reading reads them`);
  t.equal(parseCompactCount('1.1K'), 1100);
  t.equal(parseCompactCount('14.7K'), 14700);
  t.equal(parseCompactCount('3.5M'), 3500000);
  t.equal(parseCompactCount('1,2K'), 1200);
  t.equal(parseCompactCount('121,855'), 121855);
  t.equal(parseCompactCount('(354)'), 354);
});

t.test('sold captions in every language of the sites', async (t) => {
  const cases: Array<[string, boolean, boolean, string | null]> = [
    ['Sold  Mar 7, 2026', true, false, '2026-03-07'],
    ['Sold  7 Mar 2026', true, false, '2026-03-07'],
    ['Sold Sept 7, 2025', true, false, '2025-09-07'],
    ['Verkauft  3. Okt. 2025', true, false, '2025-10-03'],
    ['Verkauft  3. Okt 2025', true, false, '2025-10-03'],
    ['Verkauft  14. Mär. 2026', true, false, '2026-03-14'],
    ['Verkauft  1. Dezember 2025', true, false, '2025-12-01'],
    ['Verkauft 03.10.2025', true, false, '2025-10-03'],
    ['Vendu le 3 oct. 2025', true, false, '2025-10-03'],
    ['Vendu le 3 oct 2025', true, false, '2025-10-03'],
    ['Vendu le 21 févr. 2026', true, false, '2026-02-21'],
    ['Vendu le 1 août 2025', true, false, '2025-08-01'],
    ['Venduto il 3 ott 2025', true, false, '2025-10-03'],
    ['Venduto il 3 ott. 2025', true, false, '2025-10-03'],
    ['Venduto il 9 mag 2026', true, false, '2026-05-09'],
    ['Vendido el 3 oct. 2025', true, false, '2025-10-03'],
    ['Vendido el 3 oct 2025', true, false, '2025-10-03'],
    ['Vendido el 2 ene 2026', true, false, '2026-01-02'],
    ['Vendido el 12 de septiembre de 2025', true, false, '2025-09-12'],
    ['販売済み  Jan 9, 2026', true, false, '2026-01-09'],
    ['Ended  Oct 27, 2025', false, true, '2025-10-27'],
    ['Beendet  3. Okt. 2025', false, true, '2025-10-03'],
    ['Sold  Feb 30, 2026', true, false, null],
    ['NUEVO PRECIO BAJO', false, false, null],
  ];
  for (const [caption, sold, ended, date] of cases) {
    const parsed = parseSoldCaption(caption);
    t.strictSame([parsed.sold, parsed.ended, parsed.date], [sold, ended, date], caption);
    t.equal(parsed.text, caption, 'the label is kept as shown');
  }
});

t.test('every month, with and without the dot, in English, German, French, Italian and Spanish', async (t) => {
  const months: Record<string, string[]> = {
    en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
    de: ['Jan.', 'Feb.', 'Mär.', 'Apr.', 'Mai', 'Jun.', 'Jul.', 'Aug.', 'Sep.', 'Okt.', 'Nov.', 'Dez.'],
    fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
    it: ['gen', 'feb', 'mar', 'apr', 'mag', 'giu', 'lug', 'ago', 'set', 'ott', 'nov', 'dic'],
    es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'],
  };
  for (const [language, names] of Object.entries(months)) {
    names.forEach((name, index) => {
      const month = String(index + 1).padStart(2, '0');
      t.equal(parseLocalizedDate(`15 ${name} 2025`), `2025-${month}-15`, `${language} ${name}`);
      t.equal(parseLocalizedDate(`15 ${name.replace(/\.$/, '')} 2025`), `2025-${month}-15`, `${language} ${name} without the dot`);
      t.equal(parseLocalizedDate(`15. ${name} 2025`), `2025-${month}-15`, `${language} 15. ${name}`);
    });
  }
  t.equal(parseLocalizedDate('Mar 7, 2026'), '2026-03-07');
  t.equal(parseLocalizedDate('2026/03/07'), '2026-03-07');
});

t.test('a date written out agrees with the calendar of Date on every year, month and day around the range read', async (t) => {
  // The reference: a Date made from the parts, kept when it did not roll over into another month.
  const reference = (year: number, month: number, day: number): string | null => {
    if (month < 1 || month > 12 || day < 1 || year < 1990 || year > 2100) return null;
    const date = new Date(Date.UTC(year, month - 1, day));
    return date.getUTCMonth() === month - 1 ? date.toISOString().slice(0, 10) : null;
  };
  let differing = 0;
  let checked = 0;
  for (let year = 1985; year <= 2105; year += 1) {
    for (let month = -1; month <= 14; month += 1) {
      for (let day = -1; day <= 33; day += 1) {
        checked += 1;
        if (isoDate(year, month, day) !== reference(year, month, day)) differing += 1;
      }
    }
  }
  t.equal(differing, 0, `${checked} dates, leap years included (2000 is one, 2100 is not)`);
  t.equal(isoDate(2000, 2, 29), '2000-02-29');
  t.equal(isoDate(2100, 2, 29), null);
  t.equal(isoDate(2024, 2, 29), '2024-02-29');
  t.equal(isoDate(2025, 2, 29), null);
  t.equal(isoDate(2025, 4, 31), null);
  t.equal(isoDate(2025, 2.5, 3), null, 'not a whole month');
  t.equal(isoDate(Number.NaN, 2, 3), null);
});

function row(overrides: Partial<RawRow>): RawRow {
  return {
    listingId: '123456789012',
    href: 'https://www.market.test/itm/123456789012?hash=abc&itmmeta=x',
    title: 'A thing',
    imageUrl: null,
    caption: 'Sold  Mar 7, 2026',
    subtitles: ['Pre-Owned'],
    priceParts: [{ text: '$10.00', classes: 'su-styled-text positive bold large-1 s-card__price' }],
    rows: [],
    sellerName: null,
    sellerFeedback: null,
    ...overrides,
  };
}

function normalized(overrides: Partial<RawRow>, site: MarketSite = 'market.com') {
  const result = normalizeRow(row(overrides), { site, looseMatch: false });
  if (!result.ok) throw new Error(result.reason);
  return result.item;
}

t.test('shipping in the sites\' words', async (t) => {
  const priceOn: Partial<Record<MarketSite, string>> = { 'market.co.uk': '£10.00', 'market.de': 'EUR 10,00', 'market.fr': '10,00 EUR', 'market.it': '10,00 EUR', 'market.es': '10,00 EUR' };
  const cases: Array<[MarketSite, string, number | null, string | null]> = [
    ['market.com', 'Free delivery', 0, 'USD'],
    ['market.com', '+$5.99 delivery', 5.99, 'USD'],
    ['market.com', '+$33.96 shipping estimate', 33.96, 'USD'],
    ['market.co.uk', '+ £5.49 postage', 5.49, 'GBP'],
    ['market.co.uk', 'Free international postage', 0, 'GBP'],
    ['market.de', '+EUR 6,19 Lieferung', 6.19, 'EUR'],
    ['market.de', '+ ca. EUR 5,00 Versand', 5, 'EUR'],
    ['market.de', 'Kostenloser Versand', 0, 'EUR'],
    ['market.fr', '+2,70 EUR livraison', 2.7, 'EUR'],
    ['market.fr', 'Livraison gratuite', 0, 'EUR'],
    ['market.it', '+5,00 EUR spedizione', 5, 'EUR'],
    ['market.it', 'Spedizione gratuita', 0, 'EUR'],
    ['market.es', '+4,00 EUR envío', 4, 'EUR'],
    ['market.es', 'Envío gratis', 0, 'EUR'],
    ['market.com', '＋送料3,391 円', 3391, 'JPY'],
    ['market.com', '+배송비 KRW36,330.95', 36331, 'KRW'],
    ['market.com', 'Envío no especificado', null, null],
    ['market.co.uk', 'Postage not specified', null, null],
  ];
  for (const [site, text, value, currency] of cases) {
    // Free shipping is zero in the price's currency.
    const price = priceOn[site] ?? '$10.00';
    const item = normalized({ rows: ['Buy It Now', text], priceParts: [{ text: price, classes: 'su-styled-text positive bold large-1 s-card__price' }] }, site);
    t.strictSame(item.shipping ? [item.shipping.value, item.shipping.currency] : [null, null], [value, currency], `${site}: ${text}`);
    t.equal(item.shippingText, text);
  }
});

t.test('formats, bids and best offers', async (t) => {
  t.strictSame([normalized({ rows: ['7 bids'] }).buyingFormat, normalized({ rows: ['7 bids'] }).bidCount], ['auction', 7]);
  t.strictSame([normalized({ rows: ['1 Gebot'] }).bidCount, normalized({ rows: ['3 enchères'] }).bidCount, normalized({ rows: ['5 offerte'] }).bidCount], [1, 3, 5]);
  t.strictSame([normalized({ rows: ['2 pujas'] }).bidCount, normalized({ rows: ['8 ofertas de subasta'] }).bidCount, normalized({ rows: ['7件の入札'] }).bidCount], [2, 8, 7]);
  t.equal(normalized({ rows: ['Sofort-Kaufen'] }).buyingFormat, 'buyItNow');
  t.equal(normalized({ rows: ['or Best Offer'] }).buyingFormat, 'buyItNow');
  t.equal(normalized({ rows: [] }).buyingFormat, null);
  const accepted = normalized({ priceParts: [{ text: '$109.00', classes: 'su-styled-text positive strikethrough large-1 s-card__price' }], rows: ['Best offer accepted'] });
  t.strictSame([accepted.bestOfferAccepted, accepted.priceIsDisplayedOnly, accepted.price?.value], [true, true, 109]);
  const wasPrice = normalized({ priceParts: [{ text: '$79.99', classes: 'su-styled-text positive bold large-1 s-card__price' }] });
  t.strictSame([wasPrice.bestOfferAccepted, wasPrice.priceIsDisplayedOnly], [false, false], 'a sold fixed price is what the buyer paid');
  const converted = normalized({ priceParts: [{ text: '$53.59', classes: 'su-styled-text positive italic large-1 s-card__price' }] });
  t.equal(converted.priceIsDisplayedOnly, true, 'a converted price is a display');
  const active = normalized({ caption: null });
  t.strictSame([active.sold, active.soldDate, active.soldDateText, active.priceIsDisplayedOnly], [false, null, null, true]);
});

t.test('titles, urls, conditions, locations and sellers', async (t) => {
  const item = normalized({
    title: 'New Listing  Pink Floyd  Animals Opens in a new window or tab',
    href: 'https://www.market.test/itm/Pink-Floyd-Animals/123456789012?hash=item1&itmmeta=01X&_trksid=p1',
    subtitles: ['30 Day Warranty', 'Neu | Gewerblich'],
    rows: ['aus Großbritannien'],
    sellerName: 'r00sters',
    sellerFeedback: '99.8% positive (1.1K)',
  });
  t.equal(item.title, 'Pink Floyd Animals');
  t.equal(item.url, 'https://www.market.test/itm/123456789012');
  t.equal(item.condition, 'Neu');
  t.equal(item.location, 'Großbritannien');
  t.strictSame(item.seller, { username: 'r00sters', feedbackScore: 1100, positivePercent: 99.8 });
  t.equal(normalized({ href: 'http://127.0.0.1:4010/market.de/itm/123456789012?x=1' }).url, 'http://127.0.0.1:4010/market.de/itm/123456789012', 'a site mounted under a path keeps it');
  const locations: Array<[string, string]> = [['Located in United States', 'United States'], ['from Germany', 'Germany'], ['From United Kingdom', 'United Kingdom'], ['de Canadá', 'Canadá'], ['da Italia', 'Italia'], ['発送元 英国', '英国']];
  for (const [text, location] of locations) t.equal(normalized({ rows: [text] }).location, location, text);
  t.notOk(normalizeRow(row({ listingId: '2500219655424533', href: 'https://www.market.test/itm/123456' }), { site: 'market.com', looseMatch: false }).ok, 'the "Shop on eBay" placeholder is not an item');
});

t.test('the loose-match divider is only the "fewer words" notice', async (t) => {
  const card = (id: string) => `<li class="s-card" data-listingid="${id}"><a class="s-card__link" href="https://x/itm/${id}"><div class="s-card__title"><span>T ${id}</span></div></a><div class="s-card__caption"><span>Sold  Mar 7, 2026</span></div><div class="su-card-container__attributes__primary"><div class="s-card__attribute-row"><span class="s-card__price">$1.00</span></div></div></li>`;
  const page = (notice: string) =>
    `<ul class="srp-results">${card('111111111111')}<li class="srp-river-answer srp-river-answer--REWRITE_START"><span class="BOLD">${notice}</span></li>${card('222222222222')}</ul>`;
  for (const notice of ['Results matching fewer words', 'Ergebnisse für weniger Suchbegriffe', 'Résultats correspondant à moins de mots', 'Risultati corrispondenti a meno parole', 'Resultados que coinciden con menos palabras']) {
    t.strictSame(parseSearchPage(page(notice), 'market.com').items.map((item) => item.looseMatch), [false, true], notice);
  }
  for (const notice of ['685 items found from eBay international sellers', 'Simplificamos tus resultados de búsqueda']) {
    t.strictSame(parseSearchPage(page(notice), 'market.com').items.map((item) => item.looseMatch), [false, false], `not a divider: ${notice}`);
  }
});

/** A current-layout card, trimmed from the saved sold pages (`sold_us_scard_vw_beetle.html`) to the parts the parser reads. */
function sCard(id: string, priceSpans: string[], rows: string[]): string {
  const prices = priceSpans.map((text) => `<span class="su-styled-text positive bold large-1 s-card__price">${text}</span>`).join('');
  const attributeRows = rows.map((text) => `<div class=s-card__attribute-row><span class="su-styled-text secondary large">${text}</span></div>`).join('');
  return `<li class="s-card s-card--horizontal" id=item57c7629650 data-listingid=${id}><div class="su-card-container su-card-container--horizontal"><div class=su-card-container__content><div class=su-card-container__header><div class=s-card__caption><span class="su-styled-text positive default" aria-label="Sold Item">Sold  Mar 7, 2026</span></div><a class=s-card__link target=_blank href=https://www.ebay.com/itm/${id}?_skw=lego&itmmeta=01KQ><div role=heading aria-level=3 class=s-card__title><span class="su-styled-text primary default">LEGO Star Wars 75192 Millennium Falcon</span><span class=clipped>Opens in a new window or tab</span></div></a><div class=s-card__subtitle-row><div class=s-card__subtitle><span class="su-styled-text secondary default">Pre-Owned</span></div></div></div><div class="su-card-container__attributes su-card-container__attributes--has-secondary"><div class=su-card-container__attributes__primary><div class=s-card__attribute-row>${prices}</div>${attributeRows}</div><div class=su-card-container__attributes__secondary><div class=s-card__attribute-row><span class="su-styled-text primary large">ymparts </span><span class="su-styled-text primary large">100% positive (354)</span></div></div></div></div></div></li>`;
}

t.test('prices written with an ISO code before the number, on a card', async (t) => {
  const page = `<div class="srp-river-results clearfix" id="srp-river-results"><ul class="srp-results srp-list clearfix">${sCard('377007281744', ['KRW129,680.08'], ['+배송비 KRW36,330.95', 'Located in United States'])}${sCard('188114878749', ['KRW1,711.13', '~', 'KRW68,445.28'], ['무료 배송'])}</ul></div>`;
  const [single, range] = parseSearchPage(page, 'market.com').items;
  t.strictSame([single?.price, single?.priceText, single?.shipping, single?.shippingText], [{ value: 129680, currency: 'KRW' }, 'KRW129,680.08', { value: 36331, currency: 'KRW' }, '+배송비 KRW36,330.95']);
  t.equal(single?.priceIsDisplayedOnly, false, 'a sold fixed price in won is what the buyer paid');
  t.strictSame([range?.price, range?.priceText, range?.priceIsDisplayedOnly], [{ value: 1711, currency: 'KRW' }, 'KRW1,711.13 ~ KRW68,445.28', true], 'a range: its lower end, a display');
  t.strictSame(range?.shipping, { value: 0, currency: 'KRW' }, 'free shipping in the price\'s currency');
});

/** An older-layout row, trimmed from the saved `active_uk_sitem_warhammer.html` to the parts the parser reads. */
function sItem(id: string, title: string): string {
  const href = `https://www.ebay.co.uk/itm/${title.replace(/\W+/g, '-')}/${id}?epid=15038983780&amp;hash=item3dad5b5d68`;
  return `<li class="s-item s-item--watch-at-corner" data-view="mi:1686|iid:1"><div class="s-item__wrapper clearfix"><div class="s-item__image-section"><div class="s-item__image"><a aria-hidden="true" href="${href}" tabindex="-1"><div class="s-item__image-wrapper"><img alt="${title}" class="s-item__image-img" loading="eager" src="https://i.ebayimg.com/thumbs/images/g/IdYAAOSw1wtfiWFd/s-l225.jpg"/></div></a></div></div><div class="s-item__info clearfix"><a class="s-item__link" href="${href}"><h3 class="s-item__title">${title}</h3></a><div class="s-item__subtitle"><span class="SECONDARY_INFO">Brand new</span></div><div class="s-item__details clearfix"><div class="s-item__detail s-item__detail--primary"><span class="s-item__price">£3.95</span></div><div class="s-item__detail s-item__detail--primary"><span class="s-item__purchase-options-with-icon">Buy it now</span></div><span class="s-item__detail s-item__detail--secondary"><span class="s-item__location s-item__itemLocation">From United Kingdom</span></span><div class="s-item__detail s-item__detail--primary"><span class="s-item__shipping s-item__logisticsCost">+ £23.91 postage estimate</span></div></div></div></div></li>`;
}

t.test('older s-item pages: rows outside the results list are not results', async (t) => {
  // As on the saved page: a hidden `.clipped` row before the list, a carousel answer inside it; then a related-items carousel after it.
  const page = `<div class="srp-river srp-layout-inner"><div class="srp-river-main clearfix" id="srp-river-main"><div aria-hidden="true" class="clipped">${sItem('264901451101', 'Hidden row')}</div><div class="srp-river-results clearfix" id="srp-river-results"><ul class="srp-results srp-list clearfix">${sItem('264901451112', 'Warhammer 40k Intercessor sprue')}<li class="srp-river-answer srp-river-answer--SPECTRUM_OF_VALUE_CAROUSEL"><div class="srp-sov"><div class="srp-items-carousel__container"><div class="carousel srp-items-carousel"><ul class="carousel__list"><li class="carousel__snap-point srp-items-carousel__list-item"><ul class="srp-items-carousel__list">${sItem('264901451123', 'Carousel row')}</ul></li></ul></div></div></div></li>${sItem('264901451134', 'Warhammer Space Marine Captain')}</ul></div><div class="srp-related-items"><div class="carousel"><ul class="carousel__list">${sItem('264901451145', 'Related row one')}${sItem('264901451156', 'Related row two')}</ul></div></div></div></div>`;
  const parsed = parseSearchPage(page, 'market.co.uk');
  t.strictSame(parsed.items.map((item) => item.itemId), ['264901451112', '264901451134']);
  t.strictSame([parsed.items[0]?.title, parsed.items[0]?.price, parsed.items[0]?.shipping], ['Warhammer 40k Intercessor sprue', { value: 3.95, currency: 'GBP' }, { value: 23.91, currency: 'GBP' }]);
  t.equal(parsed.rowsDropped, 0);
  const listless = parseSearchPage(`<div class="srp-river-main">${sItem('264901451112', 'Warhammer 40k Intercessor sprue')}</div>`, 'market.co.uk');
  t.strictSame(listless.items.map((item) => item.itemId), ['264901451112'], 'a page without a results list: its rows, as before');
});

t.test('the vocabulary is written in lower case, as the lookups compare it', async (t) => {
  for (const [name, value] of Object.entries(vocabulary)) {
    if (Array.isArray(value)) t.strictSame(value.filter((text) => text !== text.toLowerCase()), [], name);
  }
});
