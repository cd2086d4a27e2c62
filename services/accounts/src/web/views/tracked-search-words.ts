import { SITE_CURRENCY } from '@comps/shared/contract/market-sites';
import type { Run, RunStopReason, TrackedSearch } from '@comps/shared/contract/tracked-search';
import { html, type SafeHtml } from '../html.js';
import { formatMoney } from './charts/chart-kit.js';
import { CONDITION_CHOICES, FORMAT_CHOICES, SCHEDULE_CHOICES } from './tracked-search-form.js';

/** How the tracked-search pages say what a tracked search and its runs are, the same on the list and on its page. */

/** Why a run stopped, in words. */
export const STOP_REASON_WORDS: Record<RunStopReason, string> = {
  caught_up: 'caught up: a page with no new sale',
  max_pages: 'reached its pages per run',
  empty_page: 'no more results',
  repeated_page: 'no more results (a page came back again)',
  quota_exhausted: 'monthly quota used up',
  error: 'stopped by an error',
};

const RUN_BADGE: Record<Run['status'], string> = { running: 'busy', completed: 'ok', failed: 'bad' };

export function runStatusBadge(run: Run): SafeHtml {
  return html`<span class="badge ${RUN_BADGE[run.status]}">${run.status}</span>`;
}

/** Why the run stopped (and the error's own words when it failed), or that it still runs. */
export function stopReasonInWords(run: Run): SafeHtml {
  if (run.status === 'running') return html`<span class="muted">still running</span>`;
  return html`${run.stopReason ? STOP_REASON_WORDS[run.stopReason] : 'ended'}${run.error ? html`<br><span class="muted">${run.error.error}</span>` : ''}`;
}

export function trackedStatusBadge(trackedSearch: TrackedSearch): SafeHtml {
  return trackedSearch.status === 'active' ? html`<span class="badge ok">active</span>` : html`<span class="badge neutral">paused</span>`;
}

/** Why it is paused: the service's reason (three blocked runs in a row), or the workspace's choice. */
export function pausedInWords(trackedSearch: TrackedSearch): string | null {
  if (trackedSearch.status !== 'paused') return null;
  return trackedSearch.pausedReason ?? 'Paused from the dashboard or the API: it runs again once resumed.';
}

export function scheduleInWords(trackedSearch: TrackedSearch): string {
  return SCHEDULE_CHOICES[trackedSearch.schedule];
}

/** The search's filters beyond its keyword and site, in words (`Used · $20 to $100 · Auction · exact match`). */
export function filtersInWords(query: TrackedSearch['query']): string[] {
  const currency = SITE_CURRENCY[query.marketSite];
  const words: string[] = [];
  if (query.itemCondition !== 'any') words.push(CONDITION_CHOICES[query.itemCondition]);
  if (query.minPrice !== null && query.maxPrice !== null) words.push(`${formatMoney(query.minPrice, currency)} to ${formatMoney(query.maxPrice, currency)}`);
  else if (query.minPrice !== null) words.push(`from ${formatMoney(query.minPrice, currency)}`);
  else if (query.maxPrice !== null) words.push(`up to ${formatMoney(query.maxPrice, currency)}`);
  if (query.buyingFormat !== 'all') words.push(FORMAT_CHOICES[query.buyingFormat]);
  if (query.categoryId !== '0') words.push(`category ${query.categoryId}`);
  if (query.exactMatch) words.push('exact match');
  return words;
}
