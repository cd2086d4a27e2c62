import type { Element } from 'domhandler';
import { classList, findAll, findFirst, hasClass, isInside, rawText, textOf, walk } from './dom.js';
import type { RawRow } from './raw-row.js';

/** The image a row shows; lazy images keep the real address in a data attribute. */
export function imageOf(image: Element | undefined): string | null {
  if (!image) return null;
  const candidates = [image.attribs['data-defer-load'], image.attribs['data-src'], image.attribs.src];
  const real = candidates.find((url) => url && /^https?:\/\//.test(url) && !/ebaystatic\.com\/(rs|cr|aw)\//.test(url));
  return real ?? null;
}

/** Adds `element` to `list` once (a class named twice lists it once, as a search by class finds it once). */
function addOnce(list: Element[], element: Element): void {
  if (list.at(-1) !== element) list.push(element);
}

const TITLE_NOISE = (element: Element) => hasClass(element, 'clipped') || hasClass(element, 's-card__new-listing') || hasClass(element, 'LIGHT_HIGHLIGHT');

function sellerOf(spans: string[]): { sellerName: string | null; sellerFeedback: string | null } {
  // Usually name and feedback are two spans; some cards put both in one ("name 99.9% positive (30.4K)").
  const joined = /^(.+?)\s+(\d{1,3}(?:[.,]\d+)?\s*%.*)$/.exec(spans[0] ?? '');
  if (joined && !spans.slice(1).some((text) => /%/.test(text))) spans.splice(0, 1, joined[1]!, joined[2]!);
  return { sellerName: spans[0] ?? null, sellerFeedback: spans.slice(1).find((text) => /%/.test(text)) ?? null };
}

/**
 * The current layout: `li.s-card` with `data-listingid`; its parts are found in one walk by class,
 * and so are its attribute rows and prices (each row is then told by where it stands, rather than
 * by walking each part again).
 */
export function extractCardRow(card: Element): RawRow {
  let title: Element | undefined;
  let caption: Element | undefined;
  let image: Element | undefined;
  let href: string | undefined;
  let primary: Element | undefined;
  let secondary: Element | undefined;
  const subtitles: Element[] = [];
  const allRows: Element[] = [];
  const prices: Element[] = [];
  walk(card, (element) => {
    // Card variants name the item link differently (s-card__link, su-link, image-treatment); its target is the same.
    if (href === undefined && element.name === 'a' && element.attribs.href?.includes('/itm/')) href = element.attribs.href;
    const classes = element.attribs.class;
    // Most of a card's elements have none of these classes: only candidates are split.
    if (!classes || !(classes.includes('s-card__') || classes.includes('su-card-container__attributes__'))) return true;
    for (const name of classList(element)) {
      if (name === 's-card__title') title ??= element;
      else if (name === 's-card__caption') caption ??= element;
      else if (name === 's-card__image' && element.name === 'img') image ??= element;
      else if (name === 's-card__subtitle') subtitles.push(element);
      else if (name === 'su-card-container__attributes__primary') primary ??= element;
      else if (name === 'su-card-container__attributes__secondary') secondary ??= element;
      else if (name === 's-card__attribute-row') addOnce(allRows, element);
      else if (name === 's-card__price') addOnce(prices, element);
    }
    return true;
  });
  // The attribute rows of the first primary section, in order; the price row is the first that holds a price.
  const attributeRows = primary ? allRows.filter((row) => isInside(row, primary!)) : [];
  const priceRow = attributeRows.find((row) => prices.some((price) => isInside(price, row)));
  const priceParts = priceRow
    ? prices.filter((price) => isInside(price, priceRow)).map((span) => ({ text: textOf(span), classes: span.attribs.class ?? '' }))
    : [];
  const rows = attributeRows.filter((row) => row !== priceRow).map((row) => textOf(row)).filter(Boolean);
  const sellerRow = secondary ? allRows.find((row) => isInside(row, secondary!) && rawText(row).includes('%')) : undefined;
  const sellerSpans = sellerRow ? findAll(sellerRow, (element) => element.name === 'span' && hasClass(element, 'su-styled-text')).map((span) => textOf(span)) : [];
  return {
    listingId: card.attribs['data-listingid'] ?? null,
    href: href ?? null,
    title: title ? textOf(title, TITLE_NOISE) : '',
    imageUrl: imageOf(image),
    caption: caption ? rawText(caption).trim() : null,
    subtitles: subtitles.map((subtitle) => textOf(subtitle)),
    priceParts,
    rows,
    ...sellerOf(sellerSpans),
  };
}

/**
 * The `su-item-card` layout (market.com.au, July 2026): `li.su-grid__item > div.su-item-card` with
 * `data-listingid`; the price container holds the price spans and, apart, accessories (a struck
 * "was" price that is not the price); the attributes are plain spans of the primary section.
 */
export function extractSuCardRow(card: Element): RawRow {
  let title: Element | undefined;
  let caption: Element | undefined;
  let soldLabel: Element | undefined;
  let image: Element | undefined;
  let href: string | undefined;
  let priceContainer: Element | undefined;
  let primary: Element | undefined;
  let secondary: Element | undefined;
  const subtitles: Element[] = [];
  walk(card, (element) => {
    if (href === undefined && element.name === 'a' && element.attribs.href?.includes('/itm/')) href = element.attribs.href;
    if (image === undefined && element.name === 'img') image = element;
    const classes = element.attribs.class;
    if (!classes || !(classes.includes('su-') || classes.includes('signal') || classes.includes('s-card__caption'))) return true;
    for (const name of classList(element)) {
      if (name === 'su-item-card__title') title ??= element;
      // The sold label is the "recent" signal; other signals ("Last one") may stand before it.
      else if (name === 'signal--recent') soldLabel ??= element;
      else if (name === 'signal' || name === 's-card__caption') caption ??= element;
      else if (name === 'su-item-card__subtitle') subtitles.push(element);
      else if (name === 'su-item-card__price-container') priceContainer ??= element;
      else if (name === 'su-card-container__attributes__primary') primary ??= element;
      else if (name === 'su-card-container__attributes__secondary') secondary ??= element;
    }
    return true;
  });
  // The price spans (a range: low, "to", high), not the accessories beside them.
  const priceSpans = priceContainer
    ? priceContainer.children.filter((child): child is Element => child.type === 'tag' && !hasClass(child, 'su-item-card__price-accessories'))
    : [];
  const priceParts = priceSpans.map((span) => ({ text: textOf(span), classes: span.attribs.class ?? '' }));
  const rows = primary
    ? primary.children.filter((child): child is Element => child.type === 'tag').map((row) => textOf(row)).filter(Boolean)
    : [];
  const label = soldLabel ?? caption;
  const sellerText = secondary ? findAll(secondary, (element) => element.name === 'span' && rawText(element).includes('%')).map((span) => textOf(span)).at(-1) : undefined;
  return {
    listingId: card.attribs['data-listingid'] ?? null,
    href: href ?? null,
    title: title ? textOf(title, TITLE_NOISE) : '',
    imageUrl: imageOf(image),
    caption: label ? rawText(label).trim() : null,
    subtitles: subtitles.map((subtitle) => textOf(subtitle)),
    priceParts,
    rows,
    ...sellerOf(sellerText ? [sellerText] : []),
  };
}

/** The older layout: `li.s-item`, the listing id only in the link. */
export function extractItemRow(item: Element): RawRow {
  let title: Element | undefined;
  let price: Element | undefined;
  let image: Element | undefined;
  let href: string | undefined;
  let caption: Element | undefined;
  let sellerInfo: Element | undefined;
  const subtitles: Element[] = [];
  const details: Element[] = [];
  const etrs: Element[] = [];
  const prices: Element[] = [];
  let tagBlock: Element | undefined;
  walk(item, (element) => {
    if (!element.attribs.class?.includes('s-item__')) return true;
    for (const name of classList(element)) {
      if (name === 's-item__title') title ??= element;
      else if (name === 's-item__price') {
        price ??= element;
        addOnce(prices, element);
      } else if (name === 's-item__title--tagblock') tagBlock ??= element;
      else if (name === 's-item__link' && element.name === 'a' && element.attribs.href) href ??= element.attribs.href;
      else if ((name === 's-item__image-img' && element.name === 'img') || (name === 's-item__image' && !image)) image ??= element.name === 'img' ? element : findFirst(element, (child) => child.name === 'img');
      else if (name === 's-item__caption--signal') caption ??= element;
      else if (name === 's-item__subtitle') subtitles.push(element);
      else if (name === 's-item__detail') details.push(element);
      else if (name === 's-item__seller-info-text') sellerInfo ??= element;
      else if (name === 's-item__etrs-text') etrs.push(element);
    }
    return true;
  });
  // The older sold layout puts "Sold  Jul 5, 2023" in the title's tag block.
  caption ??= tagBlock ? findFirst(tagBlock, (element) => hasClass(element, 'POSITIVE') || hasClass(element, 'NEGATIVE')) : undefined;
  const titleText = title ? textOf(title, (element) => TITLE_NOISE(element) || hasClass(element, 's-item__title--tagblock')) : '';
  const strikethrough = price ? Boolean(findFirst(price, (element) => hasClass(element, 'STRIKETHROUGH'))) : false;
  const italic = price ? Boolean(findFirst(price, (element) => hasClass(element, 'ITALIC'))) : false;
  const priceParts = price ? [{ text: textOf(price), classes: `s-item__price${strikethrough ? ' strikethrough' : ''}${italic ? ' italic' : ''}` }] : [];
  // Details that are or hold a price are the price, not rows.
  const rows = details.filter((detail) => !prices.some((found) => found === detail || isInside(found, detail))).map((detail) => textOf(detail)).filter(Boolean);
  // "username (1,234) 99.5%" in one span; some pages instead show "username" "100% positive (9.6K)".
  const sellerText = sellerInfo ? textOf(sellerInfo) : '';
  const sellerMatch = /^(.*?)\s*\(([\d.,\s]+[KkMm]?)\)\s*(.*%.*)?$/.exec(sellerText);
  const etrsWithFeedback = etrs.find((element) => rawText(element).includes('%'));
  const etrsSpans = etrsWithFeedback ? etrsWithFeedback.children.filter((child): child is Element => child.type === 'tag' && child.name === 'span').map((span) => textOf(span)) : [];
  return {
    listingId: null,
    href: href ?? null,
    title: titleText,
    imageUrl: imageOf(image),
    caption: caption ? rawText(caption).trim() || null : null,
    subtitles: subtitles.map((subtitle) => textOf(subtitle)),
    priceParts,
    rows,
    sellerName: sellerMatch?.[1] || etrsSpans[0] || null,
    sellerFeedback: sellerMatch ? `${sellerMatch[3] ?? ''} (${sellerMatch[2]})` : (etrsSpans.slice(1).find((text) => /%/.test(text)) ?? null),
  };
}
