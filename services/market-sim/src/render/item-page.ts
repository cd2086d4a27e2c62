import type { MarketSite } from '@comps/shared/contract/market-sites';
import { compactScore, type Listing } from '../listings.js';
import { SITE_LOCALES } from '../locales.js';
import { escapeHtml } from './html.js';
import { imageUrl } from './results-markup.js';

function labelsValues(label: string, value: string, extraClass = ''): string {
  return `<dl class="ux-labels-values ux-labels-values--inline col-6 ${extraClass}" data-testid="ux-labels-values"><dt class="ux-labels-values__labels"><div class="ux-labels-values__labels-content"><div><span class="ux-textspans">${escapeHtml(label)}</span></div></div></dt><dd class="ux-labels-values__values"><div class="ux-labels-values__values-content"><div><span class="ux-textspans">${escapeHtml(value)}</span></div></div></dd></dl>`;
}

/** An item page (`/itm/{id}`) in the structure of the marketplace's current item view. */
export function renderItemPage(site: MarketSite, listing: Listing, siteBase: string, origin: string): string {
  const locale = SITE_LOCALES[site];
  const title = escapeHtml(listing.title);
  const images = Array.from({ length: listing.imageCount }, (_, index) =>
    `<div class="ux-image-carousel-item"><img alt="${title}" data-zoom-src="${imageUrl(origin, listing.itemId, index + 1, 1600)}" src="${imageUrl(origin, listing.itemId, index + 1, 500)}"></div>`,
  ).join('');
  const endedIso = new Date(listing.endedOn.getTime() + 18 * 3_600_000).toISOString();
  const status =
    listing.state === 'sold'
      ? `<div class="d-statusmessage" data-testid="d-statusmessage"><span class="ux-textspans">${escapeHtml(locale.soldMessage(listing.endedOn))}</span> <time datetime="${endedIso}"></time>${listing.format === 'bestOfferAccepted' ? ` <span class="ux-textspans">${escapeHtml(locale.bestOfferAccepted)}</span>` : ''}</div>`
      : listing.state === 'ended'
        ? `<div class="d-statusmessage" data-testid="d-statusmessage"><span class="ux-textspans">${escapeHtml(locale.endedMessage(listing.endedOn))}</span> <time datetime="${endedIso}"></time></div>`
        : '';
  const priceBox =
    listing.format === 'auction'
      ? `<div class="x-bid-price"><div class="x-price-primary" data-testid="x-price-primary"><span class="ux-textspans">${escapeHtml(locale.money(listing.price))}</span></div><div class="x-bid-count"><span class="ux-textspans">${escapeHtml(locale.bids(listing.bids))}</span></div></div>`
      : `<div class="x-bin-price"><div class="x-price-primary" data-testid="x-price-primary"><span class="ux-textspans">${escapeHtml(locale.money(listing.price))}</span>${listing.format === 'bestOffer' ? `<span class="x-price-primary__orBestOffer"><span class="ux-textspans ux-textspans--SECONDARY">${escapeHtml(locale.orBestOffer)}</span></span>` : ''}</div></div>`;
  const shipping = listing.shipping === null ? '' : listing.shipping === 0 ? locale.freeShipping : locale.money(listing.shipping);
  const country = listing.abroad === null ? locale.country : locale.countries[listing.abroad % locale.countries.length]!;
  const breadcrumbs = listing.categoryPath
    .map((name, index) => `<li><a class="seo-breadcrumb-text" href="${siteBase}/b/${encodeURIComponent(name.replace(/\s+/g, '-'))}/${1000 + index}/bn_${index}"><span>${escapeHtml(name)}</span></a></li>`)
    .join('');
  return `<!DOCTYPE html><html lang="${locale.lang}"><head><meta charset="utf-8"><title>${title} | eBay</title><link rel="canonical" href="${siteBase}/itm/${listing.itemId}"><meta property="og:image" content="${imageUrl(origin, listing.itemId, 1, 400)}"></head><body><div class="x-breadcrumb"><nav class="breadcrumbs"><ul>${breadcrumbs}</ul></nav></div><div class="vi-mast"><div class="ux-image-carousel">${images}</div><div class="x-evo-atf-right-river">${status}<h1 class="x-item-title__mainTitle"><span class="ux-textspans ux-textspans--BOLD">${title}</span></h1><div class="x-sellercard-atf"><div class="x-sellercard-atf__info"><div class="x-sellercard-atf__info__about-seller"><a class="ux-action" href="${siteBase}/str/${escapeHtml(listing.seller.username)}"><span class="ux-textspans ux-textspans--BOLD">${escapeHtml(listing.seller.username)}</span></a><div class="x-sellercard-atf__about-seller"><div class="x-sellercard-atf__about-seller-item"><span class="ux-textspans ux-textspans--SECONDARY">(${listing.seller.score})</span></div></div></div><ul><li class="x-sellercard-atf__data-item"><span class="ux-textspans">${escapeHtml(locale.sellerFeedback(listing.seller.percent, compactScore(listing.seller.score)).replace(/\s*\(.*\)$/, ''))}</span></li></ul></div></div><div class="x-price-section">${priceBox}</div><div class="x-item-condition-text"><span class="ux-textspans">${escapeHtml(locale.conditions[listing.condition])}</span></div>${listing.quantitySold > 0 ? `<div class="x-quantity__availability"><span class="ux-textspans">${escapeHtml(locale.sold(listing.quantitySold))}</span></div>` : ''}<div class="ux-layout-section ux-layout-section--shipping"><div class="ux-labels-values col-12 ux-labels-values--shipping"><div class="ux-labels-values__labels"><span class="ux-textspans">${escapeHtml(locale.shippingLabel)}</span></div><div class="ux-labels-values__values"><span class="ux-textspans ux-textspans--BOLD">${escapeHtml(shipping)}</span><span class="ux-textspans ux-textspans--SECONDARY">${escapeHtml(locale.locationLabel)} ${escapeHtml(country)}</span></div></div></div></div></div><div class="ux-layout-section--itemId"><span class="ux-textspans ux-textspans--SECONDARY">${escapeHtml(locale.itemNumberLabel)}</span><span class="ux-textspans ux-textspans--BOLD">${listing.itemId}</span></div><div class="ux-layout-section-evo ux-layout-section--features">${listing.specifics.map(([name, value]) => labelsValues(name, value)).join('')}</div></body></html>`;
}

export function renderNotFoundPage(site: MarketSite): string {
  const { notFound, lang } = SITE_LOCALES[site];
  return `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(notFound.title)}</title></head><body><div class="error-page"><h1>${escapeHtml(notFound.text)}</h1></div></body></html>`;
}

/** The marketplace's bot check, as it stands in front of a page it will not serve. */
export function renderChallengePage(): string {
  return `<!DOCTYPE html><html><head><title>Pardon Our Interruption...</title><link rel="stylesheet" href="/rs/c/challenge.css"></head><body><div class="pgHeading"><h1>Pardon Our Interruption...</h1><p>As you were browsing something about your browser made us think you were a bot.</p></div><!-- SiteId: 0, Environment: production, AppName: splashui --></body></html>`;
}

/** The sign-in page the marketplace redirects to when a page needs a signed-in session. */
export function renderSignInPage(): string {
  return `<!DOCTYPE html><html><head><title>Sign in or Register | eBay</title></head><body><form id="signin-form" method="post"><h1>Hello</h1><p>Sign in to eBay or create an account</p><input id="userid" name="userid" type="text"></form></body></html>`;
}
