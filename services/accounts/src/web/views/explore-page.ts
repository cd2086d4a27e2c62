import { CONDITION_CHOICES } from './tracked-search-form.js';
import { INCLUDABLE_REASONS, type IncludableReason } from '@comps/shared/contract/comps';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import { ITEM_CONDITIONS, type ListingCollection } from '@comps/shared/contract/listing';
import { DEFAULT_MARKET_SITE, MARKET_SITES } from '@comps/shared/contract/market-sites';
import { SEARCH_TEXT_MAX } from '@comps/shared/contract/search-fields';
import type { SellThrough } from '@comps/shared/contract/sell-through';
import { html, type SafeHtml } from '../html.js';
import { compsSummary, EXCLUSION_LABELS } from './comps-summary.js';
import { formatNumber, plural } from './format.js';
import { layout, notice, type PageFrame } from './layout.js';
import { compsCharts, countedSalesOf, listingsTable } from './listings-view.js';

/** The search as the form holds it (what was typed, shown again with the answer or the error). */
export interface ExploreForm {
  keyword: string;
  marketSite: string;
  itemCondition: string;
  /** Sold listings (else active ones). */
  sold: boolean;
  statsInclude: string[];
}

/** Why a search gave no answer: the contract's code and status, and how long to wait when that helps. */
export interface ExploreFailure {
  code: ErrorCode;
  status: number;
  message: string;
  retryAfter: number | null;
  /** The fields the query schema refused, with what was wrong. */
  fields: Array<{ path: string; message: string }>;
}

export interface ExploreView {
  csrfToken: string;
  form: ExploreForm;
  failure?: ExploreFailure | null;
  search?: ListingCollection | null;
  sellThrough?: SellThrough | null;
}

export const EMPTY_EXPLORE_FORM: ExploreForm = { keyword: '', marketSite: DEFAULT_MARKET_SITE, itemCondition: 'any', sold: true, statsInclude: [] };


/** What each refusal or failure means to the person at the form; nothing is ever charged for one. */
function failureInWords(failure: ExploreFailure): string {
  const wait = failure.retryAfter ? ` Try again in ${plural(failure.retryAfter, 'second')}.` : ' Try again in a moment.';
  switch (failure.code) {
    case 'quota_exhausted':
      return "Your workspace's monthly quota of requests is used up, so the search was not made. It renews at the start of next month; the Overview shows your usage.";
    case 'rate_limited':
      return `Your workspace made too many requests in a short time (its rate limit counts your API keys' requests too).${wait}`;
    case 'concurrency_limited':
      return `Your workspace already has its most requests running at once (with your API keys' and jobs').${wait}`;
    case 'upstream_error':
      return `The marketplace answered with an error, or with a page that could not be read.${wait}`;
    case 'upstream_blocked':
      return 'The marketplace refused the search with a bot check. Try again later.';
    case 'upstream_rate_limited':
      return `The marketplace is busy right now (the service's share of it is used up).${wait}`;
    case 'upstream_timeout':
      return `The marketplace did not answer in time.${wait}`;
    case 'data_gate_closed':
      return `The operator has closed access to this kind of listing for now.${wait}`;
    case 'site_not_enabled':
      return 'That site is not enabled on this service. Choose another.';
    case 'invalid_request':
      return 'Check the search:';
    default:
      return `The search service is not answering right now.${wait}`;
  }
}

function failureNotice(failure: ExploreFailure): SafeHtml {
  return notice(
    'error',
    html`<strong>${failureInWords(failure)}</strong>
      ${failure.fields.length > 0 ? html`<ul>${failure.fields.map((field) => html`<li>${field.path}: ${field.message}</li>`)}</ul>` : ''}
      ${failure.code === 'invalid_request' ? '' : html` Nothing was charged.`}
      <br><span class="small" data-testid="error-code">Error ${failure.status} · <code>${failure.code}</code></span>`,
  );
}

function exploreForm(view: ExploreView): SafeHtml {
  const { form } = view;
  const selected = (on: boolean) => (on ? html`selected` : '');
  const checked = (on: boolean) => (on ? html`checked` : '');
  return html`<form method="post" action="/dashboard/explore" class="explore-form">
    <input type="hidden" name="_csrf" value="${view.csrfToken}">
    <div class="field keyword">
      <label for="explore-keyword">Keyword</label>
      <input type="text" id="explore-keyword" name="keyword" value="${form.keyword}" required maxlength="${SEARCH_TEXT_MAX}" autocomplete="off">
    </div>
    <div class="field">
      <label for="explore-site">Site</label>
      <select id="explore-site" name="marketSite">${MARKET_SITES.map((site) => html`<option value="${site}" ${selected(form.marketSite === site)}>${site}</option>`)}</select>
    </div>
    <div class="field">
      <label for="explore-condition">Condition</label>
      <select id="explore-condition" name="itemCondition">${ITEM_CONDITIONS.map((condition) => html`<option value="${condition}" ${selected(form.itemCondition === condition)}>${CONDITION_CHOICES[condition]}</option>`)}</select>
    </div>
    <fieldset class="choices">
      <legend>Listings</legend>
      <label><input type="radio" name="sold" value="true" ${checked(form.sold)}> Sold</label>
      <label><input type="radio" name="sold" value="false" ${checked(!form.sold)}> Active</label>
    </fieldset>
    <fieldset class="choices wide">
      <legend>Count anyway <span class="hint">(left out of the price by default)</span></legend>
      ${INCLUDABLE_REASONS.map((reason: IncludableReason) => html`<label><input type="checkbox" name="statsInclude" value="${reason}" ${checked(form.statsInclude.includes(reason))}> ${EXCLUSION_LABELS[reason]}</label>`)}
    </fieldset>
    <div class="actions">
      <button type="submit">Search (1 request)</button>
      <button type="submit" class="secondary" formaction="/dashboard/explore/sell-through">Sell-through (2 requests)</button>
    </div>
    <p class="hint">Each is charged as on the API (<code>GET /v1/scrape</code>, <code>GET /v1/sell-through</code>: the sold and the active search) and shows in your request history as the dashboard's. The sell-through counts the keyword, site and condition only.</p>
  </form>`;
}

function sellThroughPanel(answer: SellThrough): SafeHtml {
  const ratio = answer.sellThrough === null ? 'not known' : `${(answer.sellThrough * 100).toFixed(1)} %`;
  const count = (value: number | null) => (value === null ? 'unknown' : formatNumber(value));
  return html`<section class="panel" aria-labelledby="sell-through-heading" id="sell-through">
    <h2 id="sell-through-heading">Sell-through of “${answer.query.keyword}” on ${answer.query.marketSite}</h2>
    <p class="big-number" data-testid="sell-through">${ratio}</p>
    <dl class="facts">
      <dt>Sold listings</dt><dd data-testid="sold-total">${count(answer.sold.totalResults)}</dd>
      <dt>Active listings</dt><dd data-testid="active-total">${count(answer.active.totalResults)}</dd>
    </dl>
    <p class="muted">${answer.definition}.${answer.sellThrough === null ? ' With no listings (or a count the marketplace did not show) there is no ratio.' : ''}</p>
  </section>`;
}

function searchResults(answer: ListingCollection): SafeHtml {
  const { query, stats } = answer;
  const what = query.sold ? 'sold listings' : 'active listings';
  const total = answer.pagination.totalResults;
  return html`<section class="panel" aria-labelledby="results-heading" id="results">
      <h2 id="results-heading">“${query.keyword ?? ''}” on ${query.marketSite}: ${what}</h2>
      <p class="muted">${plural(answer.items.length, 'listing')} of the first page${total !== null ? html` (the marketplace counts ${formatNumber(total)})` : ''}${query.itemCondition === 'any' ? '' : `, ${query.itemCondition} only`}${query.statsInclude.length > 0 ? `; counted anyway: ${query.statsInclude.map((reason) => EXCLUSION_LABELS[reason]).join(', ')}` : ''}.</p>
      ${compsSummary(stats, 'explore-comps')}
    </section>
    <section class="panel" aria-labelledby="charts-heading">
      <h2 id="charts-heading">Prices</h2>
      ${compsCharts(stats, countedSalesOf(answer.items), { idPrefix: 'explore' })}
    </section>
    <section class="panel" aria-labelledby="listings-heading">
      <h2 id="listings-heading">Listings</h2>
      ${listingsTable(answer.items, `${plural(answer.items.length, 'listing')}, as the marketplace ordered them; each opens on the marketplace`)}
    </section>`;
}

/** The Explore page: the search form, and the answer of the search or sell-through just made (or why there is none). */
export function explorePage(frame: Omit<PageFrame, 'title' | 'current'>, view: ExploreView): string {
  return layout(
    { ...frame, title: 'Explore', current: 'explore' },
    html`<h1>Explore</h1>
    <p class="lead">One search of the marketplace for your workspace: the price it gives, how far to trust it, and the listings behind it.</p>
    <section class="panel" aria-label="Search">${exploreForm(view)}</section>
    ${view.failure ? failureNotice(view.failure) : ''}
    ${view.sellThrough ? sellThroughPanel(view.sellThrough) : ''}
    ${view.search ? searchResults(view.search) : ''}`,
  );
}
