import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import type { RawRow } from './raw-row.js';
import { cleanText } from './text.js';

function textOf($: CheerioAPI, element: Cheerio<Element>): string {
  return cleanText(element.text());
}

/** The image a row shows; lazy images keep the real address in a data attribute. */
function imageOf(image: Cheerio<Element>): string | null {
  const candidates = [image.attr('data-defer-load'), image.attr('data-src'), image.attr('src')];
  const real = candidates.find((url) => url && /^https?:\/\//.test(url) && !/ebaystatic\.com\/(rs|cr|aw)\//.test(url));
  return real ?? null;
}

/** The current layout: `li.s-card` with `data-listingid`. */
export function extractCardRow($: CheerioAPI, card: Cheerio<Element>): RawRow {
  const titleElement = card.find('.s-card__title').first().clone();
  titleElement.find('.clipped, .s-card__new-listing, .LIGHT_HIGHLIGHT').remove();
  const attributeRows = card.find('.su-card-container__attributes__primary .s-card__attribute-row');
  const priceRow = attributeRows.filter((_, row) => $(row).find('.s-card__price').length > 0).first();
  const priceParts = priceRow
    .find('.s-card__price')
    .map((_, span) => ({ text: textOf($, $(span)), classes: $(span).attr('class') ?? '' }))
    .get();
  const rows = attributeRows
    .not(priceRow)
    .map((_, row) => textOf($, $(row)))
    .get()
    .filter(Boolean);
  const sellerRow = card
    .find('.su-card-container__attributes__secondary .s-card__attribute-row')
    .filter((_, row) => /%/.test($(row).text()))
    .first();
  const sellerSpans = sellerRow.find('span.su-styled-text').map((_, span) => textOf($, $(span))).get();
  // Usually name and feedback are two spans; some cards put both in one ("name 99.9% positive (30.4K)").
  const joined = /^(.+?)\s+(\d{1,3}(?:[.,]\d+)?\s*%.*)$/.exec(sellerSpans[0] ?? '');
  if (joined && !sellerSpans.slice(1).some((text) => /%/.test(text))) sellerSpans.splice(0, 1, joined[1]!, joined[2]!);
  return {
    listingId: card.attr('data-listingid') ?? null,
    // Card variants name the link differently (s-card__link, su-link, image-treatment); its target is the same.
    href: card.find('a[href*="/itm/"]').first().attr('href') ?? null,
    title: textOf($, titleElement),
    imageUrl: imageOf(card.find('img.s-card__image').first()),
    caption: card.find('.s-card__caption').length ? card.find('.s-card__caption').first().text().trim() : null,
    subtitles: card.find('.s-card__subtitle').map((_, subtitle) => textOf($, $(subtitle))).get(),
    priceParts,
    rows,
    sellerName: sellerSpans[0] ?? null,
    sellerFeedback: sellerSpans.slice(1).find((text) => /%/.test(text)) ?? null,
  };
}

/** The older layout: `li.s-item`, the listing id only in the link. */
export function extractItemRow($: CheerioAPI, item: Cheerio<Element>): RawRow {
  const titleElement = item.find('.s-item__title').first().clone();
  titleElement.find('.clipped, .LIGHT_HIGHLIGHT, .s-item__title--tagblock').remove();
  const price = item.find('.s-item__price').first();
  const strikethrough = price.find('.STRIKETHROUGH').length > 0;
  const italic = price.find('.ITALIC').length > 0;
  const priceParts = price.length
    ? [{ text: textOf($, price), classes: `s-item__price${strikethrough ? ' strikethrough' : ''}${italic ? ' italic' : ''}` }]
    : [];
  const rows = item
    .find('.s-item__detail')
    .not(item.find('.s-item__detail').filter((_, detail) => $(detail).find('.s-item__price').length > 0))
    .map((_, detail) => textOf($, $(detail)))
    .get()
    .filter(Boolean);
  // "username (1,234) 99.5%" in one span; some pages instead show "username" "100% positive (9.6K)".
  const sellerText = textOf($, item.find('.s-item__seller-info-text').first());
  const sellerMatch = /^(.*?)\s*\(([\d.,\s]+[KkMm]?)\)\s*(.*%.*)?$/.exec(sellerText);
  const sellerSpans = item
    .find('.s-item__etrs-text')
    .filter((_, node) => /%/.test($(node).text()))
    .first()
    .children('span')
    .map((_, span) => textOf($, $(span)))
    .get();
  return {
    listingId: null,
    href: item.find('a.s-item__link[href]').first().attr('href') ?? null,
    title: textOf($, titleElement),
    imageUrl: imageOf(item.find('img.s-item__image-img, .s-item__image img').first()),
    caption: item.find('.s-item__caption--signal, .s-item__title--tagblock .POSITIVE, .s-item__title--tagblock .NEGATIVE').first().text().trim() || null,
    subtitles: item.find('.s-item__subtitle').map((_, subtitle) => textOf($, $(subtitle))).get(),
    priceParts,
    rows,
    sellerName: sellerMatch?.[1] || sellerSpans[0] || null,
    sellerFeedback: sellerMatch ? `${sellerMatch[3] ?? ''} (${sellerMatch[2]})` : (sellerSpans.slice(1).find((text) => /%/.test(text)) ?? null),
  };
}
