import type { CheerioAPI } from 'cheerio';
import type { BuyingFormat, ItemDetails, ItemStatus, Seller } from '../../contract/listing.js';
import type { MarketSite } from '../../contract/market-sites.js';
import type { Money } from '../../contract/money.js';
import { ITEM_ID_PATTERN } from '../../contract/listing.js';
import { parseCompactCount, parsePrice } from './money.js';
import { canonicalItemUrl } from './normalize-row.js';
import { parseLocalizedDate } from './sold-date.js';
import { cleanText, includesAny, startsWithAny } from './text.js';
import {
  BEST_OFFER_ACCEPTED_TEXTS,
  BID_COUNT_PATTERN,
  FREE_WORDS,
  ITEM_ENDED_TEXTS,
  ITEM_LOCATION_PREFIXES,
  ITEM_NOT_FOUND_TEXTS,
  ITEM_SOLD_TEXTS,
  POSITIVE_PERCENT_PATTERN,
} from './vocabulary.js';

/** The item details a page shows; the caller adds `marketSite`, `source` and `requestId`. */
export type ParsedItemPage = Omit<ItemDetails, 'marketSite' | 'source' | 'requestId'>;

/** Item specifics that repeat the condition with its long description. */
const CONDITION_LABELS = ['condition', 'item condition', 'artikelzustand', 'zustand', 'état', "état de l'objet", 'condizione', 'condizioni', 'estado', 'estado del artículo', '状態'];

const STATUS_SELECTOR = '.d-statusmessage, [data-testid="d-statusmessage"], .x-alert, .ux-message, .vi-notify-msg';

function isItemPage($: CheerioAPI): boolean {
  return $('h1.x-item-title__mainTitle, .x-item-title').length > 0;
}

/** The marketplace's "we looked everywhere" answer for an id it does not have. */
export function isItemNotFoundPage($: CheerioAPI): boolean {
  if (isItemPage($)) return false;
  return includesAny(cleanText($('title').text() + ' ' + $('body').text().slice(0, 20_000)), ITEM_NOT_FOUND_TEXTS);
}

function itemIdOf($: CheerioAPI, fallback: string | null): string | null {
  const candidates = [
    cleanText($('.ux-layout-section--itemId .ux-textspans--BOLD').first().text()),
    /\/itm\/(?:[^/?#]+\/)?(\d{9,15})/.exec($('link[rel="canonical"]').attr('href') ?? '')?.[1] ?? '',
    fallback ?? '',
  ];
  return candidates.find((candidate) => ITEM_ID_PATTERN.test(candidate)) ?? null;
}

function imageSize(url: string): number {
  return Number(/s-l(\d+)/.exec(url)?.[1] ?? 0);
}

function imagesOf($: CheerioAPI): string[] {
  // The same picture comes in several sizes (thumbnail, carousel, zoom): one entry per picture, the largest.
  const pictures = new Map<string, string>();
  $('.ux-image-carousel-item img, .ux-image-grid-item img').each((_, image) => {
    const node = $(image);
    for (const url of [node.attr('data-zoom-src'), node.attr('data-src'), node.attr('src')]) {
      if (!url || !/^https?:\/\//.test(url) || /ebaystatic\.com/.test(url)) continue;
      const key = /\/images\/g\/([^/]+)\//.exec(url)?.[1] ?? url;
      const known = pictures.get(key);
      if (!known || imageSize(url) > imageSize(known)) pictures.set(key, url);
    }
  });
  const images = [...pictures.values()];
  if (images.length === 0) {
    const og = $('meta[property="og:image"]').attr('content');
    if (og) images.push(og);
  }
  return images;
}

function categoryPathOf($: CheerioAPI): string[] {
  const path: string[] = [];
  // Category links only: the trail ends with a "see more like this" link to the product page.
  $('nav.breadcrumbs a.seo-breadcrumb-text[href*="/b/"]').each((_, link) => {
    const text = cleanText($(link).children('span').first().text() || $(link).text());
    if (text && !path.includes(text)) path.push(text);
  });
  return path;
}

function itemSpecificsOf($: CheerioAPI): Record<string, string> {
  const specifics: Record<string, string> = {};
  $('.ux-layout-section--features .ux-labels-values, .ux-layout-section-evo .ux-labels-values').each((_, pair) => {
    const node = $(pair);
    const label = cleanText(node.find('.ux-labels-values__labels').first().text()).replace(/\s*:$/, '');
    const values = node.find('.ux-labels-values__values').first().clone();
    values.find('.clipped, button, .ux-expandable-textual-display-block-inline--hidden').remove();
    const value = cleanText(values.find('.ux-textspans').first().text() || values.text());
    if (!label || !value || label in specifics || CONDITION_LABELS.includes(label.toLowerCase())) return;
    specifics[label] = value;
  });
  return specifics;
}

function sellerOf($: CheerioAPI): Seller | null {
  const card = $('.x-sellercard-atf').first();
  if (!card.length) return null;
  const username = cleanText(card.find('.x-sellercard-atf__info__about-seller a .ux-textspans--BOLD, .x-sellercard-atf__info__about-seller .ux-textspans--BOLD').first().text()) || null;
  const scoreText = card.find('.x-sellercard-atf__about-seller-item').map((_, item) => cleanText($(item).text())).get().find((text) => /^\(?[\d.,]+[KkMm]?\)?$/.test(text));
  const percentText = card.find('.x-sellercard-atf__data-item').map((_, item) => cleanText($(item).text())).get().find((text) => POSITIVE_PERCENT_PATTERN.test(text));
  const percent = percentText ? POSITIVE_PERCENT_PATTERN.exec(percentText)?.[1] : undefined;
  return {
    username,
    feedbackScore: scoreText ? parseCompactCount(scoreText) : null,
    positivePercent: percent ? Number(percent.replace(',', '.')) : null,
  };
}

function shippingOf($: CheerioAPI, site: MarketSite, priceCurrency: string | undefined): { shipping: Money | null; shippingText: string | null } {
  const spans = $('.ux-labels-values--shipping .ux-labels-values__values')
    .first()
    .find('.ux-textspans')
    .map((_, span) => cleanText($(span).text()))
    .get()
    .filter(Boolean);
  const text = spans[0] ?? null;
  if (!text) return { shipping: null, shippingText: null };
  const parsed = parsePrice(text, site, { single: true });
  if (parsed) return { shipping: parsed.money, shippingText: text };
  if (includesAny(text, FREE_WORDS)) return { shipping: priceCurrency ? { value: 0, currency: priceCurrency } : null, shippingText: text };
  return { shipping: null, shippingText: text };
}

function locationOf($: CheerioAPI): string | null {
  let location: string | null = null;
  $('.ux-layout-section--shipping .ux-textspans').each((_, span) => {
    if (location) return;
    const text = cleanText($(span).text());
    const prefix = startsWithAny(text, ITEM_LOCATION_PREFIXES);
    if (prefix) location = text.slice(prefix.length).trim() || null;
  });
  return location;
}

function statusOf($: CheerioAPI): { status: ItemStatus; message: string | null } {
  const message = cleanText($(STATUS_SELECTOR).map((_, node) => $(node).text()).get().join(' ')) || null;
  if (message && includesAny(message, ITEM_SOLD_TEXTS)) return { status: 'sold', message };
  if (message && includesAny(message, ITEM_ENDED_TEXTS)) return { status: 'ended', message };
  if ($('.x-bin-price, .x-bid-price, .x-price-primary').length > 0) return { status: 'active', message };
  return { status: 'unknown', message };
}

function quantitySoldOf($: CheerioAPI): number | null {
  const text = cleanText($('.x-quantity__availability, .d-quantity__availability').text());
  const match = /(\d[\d.,]*)\s*(?:sold|verkauft|vendus?|venduti|vendidos|販売済み)/i.exec(text);
  return match ? parseCompactCount(match[1]!) : null;
}

/** Reads an item page (`/itm/{id}`). */
export function parseItemPage($: CheerioAPI, site: MarketSite, requestedItemId: string | null = null): ParsedItemPage | null {
  if (!isItemPage($)) return null;
  const itemId = itemIdOf($, requestedItemId);
  if (!itemId) return null;

  const priceElement = $('.x-price-primary').first();
  const priceText = cleanText(priceElement.find('.ux-textspans').not('.ux-textspans--SECONDARY').first().text() || priceElement.text()) || null;
  const price = priceText ? parsePrice(priceText, site) : null;
  const { status, message } = statusOf($);
  const sold = status === 'sold';
  const bestOfferAccepted = includesAny(`${message ?? ''} ${cleanText($('.x-price-section').text())}`, BEST_OFFER_ACCEPTED_TEXTS);
  const bidText = cleanText($('.x-bid-count, .x-bid-price').text());
  const bids = BID_COUNT_PATTERN.exec(bidText);
  const buyingFormat: BuyingFormat | null = $('.x-bid-price').length ? 'auction' : $('.x-bin-price').length ? 'buyItNow' : null;
  const images = imagesOf($);
  const endedAtAttr = $(`${STATUS_SELECTOR}`).find('time[datetime]').first().attr('datetime');
  const endedAt = endedAtAttr && !Number.isNaN(Date.parse(endedAtAttr)) ? new Date(endedAtAttr).toISOString() : null;
  const soldDate = sold && message ? parseLocalizedDate(message) : null;
  const { shipping, shippingText } = shippingOf($, site, price?.money.currency);
  const canonical = $('link[rel="canonical"]').attr('href') ?? null;

  return {
    itemId,
    title: cleanText($('h1.x-item-title__mainTitle').first().text() || $('.x-item-title').first().text()),
    url: canonicalItemUrl(canonical, itemId),
    imageUrl: images[0] ?? null,
    condition: cleanText($('.x-item-condition-text .ux-textspans').first().text()) || null,
    sold,
    soldDate,
    soldDateText: sold ? message : null,
    soldDateVerified: false,
    price: price?.money ?? null,
    priceText,
    priceIsDisplayedOnly: !sold || !price || price.isRange || bestOfferAccepted,
    bestOfferAccepted,
    buyingFormat,
    bidCount: buyingFormat === 'auction' && bids ? parseCompactCount(bids[1]!) : null,
    shipping,
    shippingText,
    seller: sellerOf($),
    location: locationOf($),
    status,
    images,
    categoryPath: categoryPathOf($),
    itemSpecifics: itemSpecificsOf($),
    quantitySold: quantitySoldOf($),
    endedAt,
  };
}

