import type { ConditionGroup, ExclusionReason, Stats } from '@comps/shared/contract/comps';
import { html, type SafeHtml } from '../html.js';
import { formatMoney } from './charts/chart-kit.js';
import { formatNumber, plural } from './format.js';

/** Why an item was not counted, in words (the items table and the exclusions list say the same). */
export const EXCLUSION_LABELS: Record<ExclusionReason, string> = {
  looseMatch: 'title does not match every word',
  noPrice: 'no price',
  otherCurrency: 'another currency',
  priceRange: 'outside the price range',
  forParts: 'for parts or not working',
  accessory: 'an accessory, not the item',
  lot: 'a lot of several',
  bestOfferAccepted: 'best offer accepted (price paid unknown)',
  outlier: 'price far from the others',
};

export const CONDITION_LABELS: Record<ConditionGroup, string> = { new: 'New', used: 'Used', refurbished: 'Refurbished', forParts: 'For parts' };
const FORMAT_LABELS = { auction: 'Auction', buyItNow: 'Buy It Now' } as const;
const CONFIDENCE_WORDS: Record<Stats['confidence'], string> = {
  high: 'high confidence',
  medium: 'medium confidence',
  low: 'low confidence',
  insufficient: 'too few to give a price',
};

/** "47 sales, high confidence" (asking prices on an active search: "47 listings, …"). */
export function confidenceInWords(stats: Pick<Stats, 'basis' | 'counted' | 'confidence'>): string {
  return `${plural(stats.counted, stats.basis === 'sold' ? 'sale' : 'listing')}, ${CONFIDENCE_WORDS[stats.confidence]}`;
}

/**
 * A collection's statistics as a reader wants them: the median with its 95 % interval and how far
 * to trust it, the unit-price percentiles, the medians by condition and by format, and what was not
 * counted and why. `id` keeps headings unique when a page shows two summaries.
 */
export function compsSummary(stats: Stats, id = 'comps'): SafeHtml {
  const money = (value: number | null) => (value === null ? '–' : formatMoney(value, stats.currency));
  const prices = stats.unitPrice;
  const excluded = (Object.entries(stats.excluded) as Array<[ExclusionReason, number]>).filter(([, count]) => count > 0);
  const what = stats.basis === 'sold' ? 'Median sold price per unit' : 'Median asking price per unit';
  return html`<div class="comps-summary" id="${id}">
    <div class="headline">
      <p class="label">${what}</p>
      <p class="big-number" data-testid="median">${prices ? money(prices.median) : 'No price'}</p>
      <p data-testid="confidence"><span class="badge ${stats.confidence === 'high' ? 'ok' : stats.confidence === 'insufficient' ? 'bad' : 'neutral'}">${confidenceInWords(stats)}</span></p>
      ${stats.medianInterval
        ? html`<p class="muted" data-testid="interval">95 % interval ${money(stats.medianInterval.low)} to ${money(stats.medianInterval.high)}</p>`
        : html`<p class="muted">${stats.confidence === 'insufficient' ? 'At least 3 comparable items are needed for a price.' : 'Too few items for an interval (6 are needed).'}</p>`}
      <p class="muted">${plural(stats.counted, 'item')} counted of ${plural(stats.listings, 'listing')}${stats.soldDates ? `, sold ${stats.soldDates.first} to ${stats.soldDates.last}` : ''}.</p>
    </div>
    ${prices
      ? html`<div class="table-wrap"><table class="percentiles" aria-labelledby="${id}-percentiles">
          <caption id="${id}-percentiles">Unit prices (${stats.currency})</caption>
          <thead><tr><th scope="col" class="num">Lowest</th><th scope="col" class="num">10th</th><th scope="col" class="num">25th</th><th scope="col" class="num">Median</th><th scope="col" class="num">75th</th><th scope="col" class="num">90th</th><th scope="col" class="num">Highest</th><th scope="col" class="num">Trimmed mean</th></tr></thead>
          <tbody><tr>${[prices.min, prices.p10, prices.p25, prices.median, prices.p75, prices.p90, prices.max, prices.trimmedMean].map((value) => html`<td class="num">${money(value)}</td>`)}</tr></tbody>
        </table></div>`
      : ''}
    <div class="grid">
      ${stats.byCondition.length > 0
        ? html`<div class="table-wrap"><table><caption>By condition</caption>
            <thead><tr><th scope="col">Condition</th><th scope="col" class="num">Counted</th><th scope="col" class="num">Median</th></tr></thead>
            <tbody>${stats.byCondition.map((group) => html`<tr><td>${CONDITION_LABELS[group.condition]}</td><td class="num">${formatNumber(group.counted)}</td><td class="num">${money(group.median)}</td></tr>`)}</tbody>
          </table></div>`
        : ''}
      ${stats.byFormat.length > 0
        ? html`<div class="table-wrap"><table><caption>By format</caption>
            <thead><tr><th scope="col">Format</th><th scope="col" class="num">Counted</th><th scope="col" class="num">Median</th></tr></thead>
            <tbody>${stats.byFormat.map((group) => html`<tr><td>${FORMAT_LABELS[group.format]}</td><td class="num">${formatNumber(group.counted)}</td><td class="num">${money(group.median)}</td></tr>`)}</tbody>
          </table></div>`
        : ''}
    </div>
    ${excluded.length > 0
      ? html`<p class="muted" data-testid="excluded">Not counted: ${excluded.map(([reason, count], index) => html`${index > 0 ? '; ' : ''}${formatNumber(count)} ${EXCLUSION_LABELS[reason]}`)}.</p>`
      : ''}
    ${stats.bestOfferAccepted && stats.bestOfferAccepted.medianAskingPrice !== null
      ? html`<p class="muted">${plural(stats.bestOfferAccepted.count, 'best offer')} accepted, asking ${money(stats.bestOfferAccepted.medianAskingPrice)} at the median: they sold at or below it.</p>`
      : ''}
  </div>`;
}
