import type { TrackedSearch } from '@comps/shared/contract/tracked-search';
import { html } from '../html.js';
import { formatNumber, formatTime, plural } from './format.js';
import { layout, notice, type PageFrame } from './layout.js';
import { trackedSearchForm, type TrackedSearchFormView } from './tracked-search-form.js';
import { filtersInWords, pausedInWords, scheduleInWords, stopReasonInWords, trackedStatusBadge } from './tracked-search-words.js';

export interface TrackedSearchesView {
  trackedSearches: TrackedSearch[];
  /** The plan's number of tracked searches, and the plan's name. */
  limit: number;
  planName: string;
  form: TrackedSearchFormView;
  /** Set after a deletion (the list no longer shows it). */
  deleted?: boolean;
}

function trackedSearchRow(trackedSearch: TrackedSearch) {
  const { query, lastRun, archive } = trackedSearch;
  const filters = filtersInWords(query);
  const paused = pausedInWords(trackedSearch);
  return html`<tr data-tracked-search-id="${trackedSearch.trackedSearchId}">
    <td><a href="/dashboard/tracked-searches/${trackedSearch.trackedSearchId}"><strong>${trackedSearch.name}</strong></a>
      <br><span class="muted">${query.keyword} · ${query.marketSite}${filters.length > 0 ? ` · ${filters.join(' · ')}` : ''}</span></td>
    <td>${scheduleInWords(trackedSearch)}<br><span class="muted">${plural(trackedSearch.maxPagesPerRun, 'page')} at most</span></td>
    <td>${trackedStatusBadge(trackedSearch)}${paused ? html`<br><span class="muted">${paused}</span>` : ''}</td>
    <td>${lastRun ? html`${formatTime(lastRun.startedAt)}<br><span class="muted">${stopReasonInWords(lastRun)}</span>` : html`<span class="muted">Not yet</span>`}</td>
    <td>${trackedSearch.nextRunAt ? formatTime(trackedSearch.nextRunAt) : html`<span class="muted">Paused</span>`}</td>
    <td class="num">${formatNumber(archive.sales)}${archive.firstSoldDate && archive.lastSoldDate ? html`<br><span class="muted nowrap">${archive.firstSoldDate} to ${archive.lastSoldDate}</span>` : ''}</td>
  </tr>`;
}

/** Why the form will be refused: the plan's number is reached. */
export function limitReached(limit: number): string {
  return limit === 0
    ? 'Your plan does not include tracked searches.'
    : `Your plan allows ${plural(limit, 'tracked search', 'tracked searches')}, and ${limit === 1 ? 'it is' : 'all are'} in use: delete one to track another.`;
}

export function trackedSearchesPage(frame: Omit<PageFrame, 'title' | 'current'>, view: TrackedSearchesView): string {
  const count = view.trackedSearches.length;
  const atLimit = count >= view.limit;
  return layout(
    { ...frame, title: 'Tracked searches', current: 'tracked' },
    html`<h1>Tracked searches</h1>
    <p class="lead">A tracked search runs a sold search on a schedule and keeps every sale it finds, so its price history grows past the marketplace's 90 days. Each page a run fetches is charged one request.</p>
    ${view.deleted ? notice('success', 'The tracked search and its archive of sales were deleted.') : ''}
    <section class="panel" aria-labelledby="tracked-list-heading">
      <h2 id="tracked-list-heading">Your tracked searches</h2>
      <p data-testid="tracked-count"><strong>${formatNumber(count)} of ${formatNumber(view.limit)}</strong> tracked searches of the ${view.planName} plan.</p>
      ${count === 0
        ? html`<p class="muted">None yet. Track a search below: its first run starts at once.</p>`
        : html`<div class="table-wrap"><table class="tracked-table">
          <thead><tr><th scope="col">Search</th><th scope="col">Schedule</th><th scope="col">Status</th><th scope="col">Last run</th><th scope="col">Next run</th><th scope="col" class="num">Sales archived</th></tr></thead>
          <tbody>${view.trackedSearches.map(trackedSearchRow)}</tbody>
        </table></div>`}
    </section>
    <section class="panel" aria-labelledby="tracked-create-heading">
      <h2 id="tracked-create-heading">Track a search</h2>
      ${atLimit && !view.form.error ? notice('info', limitReached(view.limit)) : ''}
      ${trackedSearchForm(view.form)}
    </section>`,
  );
}
