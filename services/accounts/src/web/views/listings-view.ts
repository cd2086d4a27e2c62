import type { CompsKind, Stats } from '@comps/shared/contract/comps';
import type { ListingItem } from '@comps/shared/contract/listing';
import { html, type SafeHtml } from '../html.js';
import { formatMoney } from './charts/chart-kit.js';
import { priceHistogram } from './charts/price-histogram.js';
import { salesScatter } from './charts/sales-scatter.js';
import { CONDITION_LABELS, EXCLUSION_LABELS } from './comps-summary.js';
import { formatNumber } from './format.js';
import type { CountedSale as JobCountedSale } from '@comps/shared/internal/jobs/jobs-contract';

/**
 * What the Explore and job pages show of a collection's listings beyond its summary: the two charts
 * and the table of listings with what each one is and whether it was counted.
 */

const KIND_LABELS: Record<CompsKind, string> = { single: 'Single item', lot: 'Lot', accessory: 'Accessory' };

/** A listing's title as a link to it on the marketplace, opened apart; only a web address becomes a link. */
export function listingLink(url: string, title: string): SafeHtml {
  return /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="noopener noreferrer" target="_blank">${title}</a>` : html`${title}`;
}

/** A counted item's unit price and its sold date (null for an active listing), as the charts take them. */
export type CountedSale = Readonly<JobCountedSale>;

/** The counted items of listings, as the charts take them. */
export function countedSalesOf(items: readonly ListingItem[]): CountedSale[] {
  return items.flatMap((item) => (item.comps.counted && item.comps.unitPrice ? [[item.comps.unitPrice.value, item.soldDate] as const] : []));
}

/**
 * The histogram of counted unit prices (median and fences marked) and, for sold listings, their
 * prices by sold date with the daily median: from every counted item the stats are over.
 */
export function compsCharts(stats: Stats, counted: readonly CountedSale[], options: { idPrefix: string }): SafeHtml {
  const prices = counted.map(([price]) => price);
  const sales = counted.flatMap(([price, date]) => (date ? [{ date, price }] : []));
  return html`<div class="comps-charts">
    ${priceHistogram({ id: `${options.idPrefix}-prices`, prices, currency: stats.currency, median: stats.unitPrice?.median ?? null, fences: stats.fences })}
    ${stats.basis === 'sold'
      ? salesScatter({ id: `${options.idPrefix}-sales`, sales, daily: stats.daily, currency: stats.currency })
      : html`<p class="muted">Active listings have no sale dates: there is no chart of prices by day.</p>`}
  </div>`;
}

function itemRow(item: ListingItem): SafeHtml {
  const { comps } = item;
  const price = item.price ? formatMoney(item.price.value, item.price.currency) : (item.priceText ?? '–');
  return html`<tr data-item-id="${item.itemId}">
    <td class="listing-title">${listingLink(item.url, item.title)}<br><span class="small muted">${item.itemId}${item.condition ? ` · ${item.condition}` : ''}</span></td>
    <td class="nowrap">${item.soldDate ?? item.soldDateText ?? '–'}</td>
    <td class="num">${price}${item.bestOfferAccepted ? html`<br><span class="small muted">best offer accepted</span>` : ''}</td>
    <td>${KIND_LABELS[comps.kind]}</td>
    <td>${comps.condition ? CONDITION_LABELS[comps.condition] : '–'}</td>
    <td class="num">${comps.units === null ? '–' : formatNumber(comps.units)}</td>
    <td class="num">${comps.unitPrice ? formatMoney(comps.unitPrice.value, comps.unitPrice.currency) : '–'}</td>
    <td>${comps.counted ? html`<span class="badge ok">Counted</span>` : html`<span class="badge neutral">Not counted</span><br><span class="small muted">${comps.excludedBecause ? EXCLUSION_LABELS[comps.excludedBecause] : ''}</span>`}</td>
  </tr>`;
}

/** The listings, each linked to the marketplace, with its classification and whether it was counted (and why not). */
export function listingsTable(items: readonly ListingItem[], caption: string | SafeHtml): SafeHtml {
  if (items.length === 0) return html`<p class="muted">No listings.</p>`;
  return html`<div class="table-wrap"><table class="listings">
    <caption>${caption}</caption>
    <thead><tr><th scope="col">Listing</th><th scope="col">Sold</th><th scope="col" class="num">Price</th><th scope="col">Kind</th><th scope="col">Condition</th><th scope="col" class="num">Units</th><th scope="col" class="num">Unit price</th><th scope="col">Counted</th></tr></thead>
    <tbody>${items.map(itemRow)}</tbody>
  </table></div>`;
}
