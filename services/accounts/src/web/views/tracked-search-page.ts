import { listingLink } from './listings-view.js';
import { SITE_CURRENCY } from '@comps/shared/contract/market-sites';
import { SERIES_INTERVALS, type ArchiveStats, type Run, type Sale, type SaleList, type SeriesInterval, type TrackedSearch } from '@comps/shared/contract/tracked-search';
import { html, type SafeHtml } from '../html.js';
import { formatMoney } from './charts/chart-kit.js';
import { seriesChart } from './charts/series-chart.js';
import { compsSummary, EXCLUSION_LABELS } from './comps-summary.js';
import { formatNumber, formatTime, plural } from './format.js';
import { layout, notice, type PageFrame } from './layout.js';
import { filtersInWords, pausedInWords, runStatusBadge, scheduleInWords, stopReasonInWords, trackedStatusBadge } from './tracked-search-words.js';
import { confirmPage } from './confirm-page.js';

/** Runs shown on the page (an hourly tracked search has 720 in its 30 days). */
export const RUNS_SHOWN = 20;

/** What the page says after its own buttons (a fixed word in the address, never text from it). */
export type TrackedSearchDone = 'run' | 'paused' | 'resumed';

const DONE_WORDS: Record<TrackedSearchDone, string> = {
  run: 'A run has started. It is listed under Runs; reload the page to follow it.',
  paused: 'Paused: it will not run on its schedule until you resume it.',
  resumed: 'Resumed: its next run is due now.',
};

export interface Period {
  /** `YYYY-MM-DD` or '' (the archive's first or last sale). */
  from: string;
  to: string;
  interval: SeriesInterval;
}

export interface TrackedSearchView {
  csrfToken: string;
  trackedSearch: TrackedSearch;
  runs: Run[];
  period: Period;
  stats: ArchiveStats;
  sales: SaleList;
  /** The cursor of the page of sales shown ('' for the newest). */
  salesCursor: string;
  done?: TrackedSearchDone | null;
  /** A refusal of a button (a run already running). */
  error?: string | null;
}

const INTERVAL_LABELS: Record<SeriesInterval, string> = { day: 'By day', week: 'By week', month: 'By month' };

/** The page's address with the period (and a page of sales), as its links and forms keep it. */
export function trackedSearchHref(trackedSearchId: string, period: Period, cursor = ''): string {
  const query = new URLSearchParams({
    ...(period.from ? { from: period.from } : {}),
    ...(period.to ? { to: period.to } : {}),
    ...(period.interval !== 'week' ? { interval: period.interval } : {}),
    ...(cursor ? { cursor } : {}),
  }).toString();
  return `/dashboard/tracked-searches/${trackedSearchId}${query ? `?${query}` : ''}`;
}

function periodInWords(period: Period): string {
  if (period.from && period.to) return `sold ${period.from} to ${period.to}`;
  if (period.from) return `sold from ${period.from}`;
  if (period.to) return `sold up to ${period.to}`;
  return 'the whole archive';
}

function saleRow(sale: Sale): SafeHtml {
  const price = sale.price ? formatMoney(sale.price.value, sale.price.currency) : (sale.priceText ?? '–');
  return html`<tr data-item-id="${sale.itemId}">
    <td class="nowrap">${sale.soldDate ?? sale.soldDateText ?? '–'}</td>
    <td>${listingLink(sale.url, sale.title)}</td>
    <td class="num nowrap">${price}${sale.bestOfferAccepted ? html`<br><span class="muted small">best offer accepted</span>` : ''}</td>
    <td>${sale.condition ?? '–'}</td>
    <td>${sale.comps.counted ? 'Yes' : html`No<br><span class="muted small">${sale.comps.excludedBecause ? EXCLUSION_LABELS[sale.comps.excludedBecause] : ''}</span>`}</td>
    <td class="nowrap">${formatTime(sale.firstSeenAt)}</td>
  </tr>`;
}

function runRow(run: Run): SafeHtml {
  return html`<tr data-run-id="${run.runId}">
    <td class="nowrap">${formatTime(run.startedAt)}</td>
    <td>${run.trigger === 'manual' ? 'Run now' : 'Schedule'}</td>
    <td>${runStatusBadge(run)}</td>
    <td class="num">${formatNumber(run.pagesFetched)}</td>
    <td class="num">${formatNumber(run.pagesCharged)}</td>
    <td class="num">${formatNumber(run.newSales)}</td>
    <td>${stopReasonInWords(run)}</td>
  </tr>`;
}

function actions(view: TrackedSearchView): SafeHtml {
  const { trackedSearchId, status, name } = view.trackedSearch;
  const base = `/dashboard/tracked-searches/${trackedSearchId}`;
  return html`<div class="actions tracked-actions">
    <form method="post" action="${base}/run">
      <input type="hidden" name="_csrf" value="${view.csrfToken}">
      <button type="submit">Run now</button>
    </form>
    <form method="post" action="${base}/${status === 'active' ? 'pause' : 'resume'}">
      <input type="hidden" name="_csrf" value="${view.csrfToken}">
      <button type="submit" class="secondary">${status === 'active' ? 'Pause' : 'Resume'}</button>
    </form>
    <a class="button secondary" href="${base}/sales.csv" download>Download CSV</a>
    <form method="get" action="${base}/delete">
      <button type="submit" class="danger-outline" aria-label="Delete ${name}">Delete</button>
    </form>
  </div>`;
}

function facts(trackedSearch: TrackedSearch): SafeHtml {
  const { query, archive } = trackedSearch;
  const filters = filtersInWords(query);
  const paused = pausedInWords(trackedSearch);
  return html`<dl class="facts tracked-facts">
    <dt>Keyword</dt><dd>${query.keyword}</dd>
    <dt>Site</dt><dd>${query.marketSite} (${SITE_CURRENCY[query.marketSite]})</dd>
    ${filters.length > 0 ? html`<dt>Filters</dt><dd>${filters.join(' · ')}</dd>` : ''}
    <dt>Status</dt><dd data-testid="tracked-status">${trackedStatusBadge(trackedSearch)}${paused ? html` <span class="muted">${paused}</span>` : ''}</dd>
    <dt>Schedule</dt><dd>${scheduleInWords(trackedSearch)}, at most ${plural(trackedSearch.maxPagesPerRun, 'page')} a run</dd>
    <dt>Next run</dt><dd>${trackedSearch.nextRunAt ? formatTime(trackedSearch.nextRunAt) : 'none while paused'}</dd>
    <dt>Archive</dt><dd data-testid="archive">${plural(archive.sales, 'sale')}${archive.firstSoldDate && archive.lastSoldDate ? `, sold ${archive.firstSoldDate} to ${archive.lastSoldDate}` : ''}</dd>
    <dt>Created</dt><dd>${formatTime(trackedSearch.createdAt)}</dd>
  </dl>`;
}

function periodForm(trackedSearchId: string, period: Period): SafeHtml {
  return html`<form class="inline period-form" method="get" action="/dashboard/tracked-searches/${trackedSearchId}">
    <div class="field"><label for="period-from">From</label><input id="period-from" name="from" type="date" value="${period.from}"></div>
    <div class="field"><label for="period-to">To</label><input id="period-to" name="to" type="date" value="${period.to}"></div>
    ${period.interval !== 'week' ? html`<input type="hidden" name="interval" value="${period.interval}">` : ''}
    <button type="submit">Show</button>
    ${period.from || period.to ? html`<a href="${trackedSearchHref(trackedSearchId, { from: '', to: '', interval: period.interval })}">Whole archive</a>` : ''}
  </form>
  <p class="hint">Sold dates, both included. The chart, the statistics and the sales below cover this period.</p>`;
}

export function trackedSearchPage(frame: Omit<PageFrame, 'title' | 'current'>, view: TrackedSearchView): string {
  const { trackedSearch, period, stats, sales, runs } = view;
  const id = trackedSearch.trackedSearchId;
  const currency = stats.stats.currency ?? SITE_CURRENCY[trackedSearch.query.marketSite];
  const intervalLinks = SERIES_INTERVALS.map(
    (interval) => html`<a href="${trackedSearchHref(id, { ...period, interval })}#price" ${interval === period.interval ? html`aria-current="true"` : ''}>${INTERVAL_LABELS[interval]}</a>`,
  );
  return layout(
    { ...frame, title: trackedSearch.name, current: 'tracked' },
    html`<p class="breadcrumb"><a href="/dashboard/tracked-searches">Tracked searches</a></p>
    <h1>${trackedSearch.name}</h1>
    ${notice('error', view.error)}
    ${view.done ? notice('success', DONE_WORDS[view.done]) : ''}
    <section class="panel" aria-labelledby="about-heading">
      <h2 id="about-heading" class="visually-hidden">About this tracked search</h2>
      ${actions(view)}
      ${facts(trackedSearch)}
    </section>
    <section class="panel" id="price" aria-labelledby="price-heading">
      <h2 id="price-heading">Price over time</h2>
      ${periodForm(id, period)}
      <nav class="interval-links" aria-label="Step of the chart">${intervalLinks}</nav>
      ${seriesChart({ series: stats.series, interval: period.interval, currency })}
    </section>
    <section class="panel" aria-labelledby="stats-heading">
      <h2 id="stats-heading">Statistics of ${periodInWords(period)}</h2>
      ${compsSummary(stats.stats, 'period-stats')}
    </section>
    <section class="panel" id="sales" aria-labelledby="sales-heading">
      <h2 id="sales-heading">${view.salesCursor ? 'Older sales' : 'Recent sales'}</h2>
      ${sales.sales.length === 0
        ? html`<p class="muted">No sales ${period.from || period.to ? 'in this period' : 'archived yet'}.</p>`
        : html`<div class="table-wrap"><table class="sales-table">
          <caption>Newest sold first, ${periodInWords(period)}</caption>
          <thead><tr><th scope="col">Sold</th><th scope="col">Listing</th><th scope="col" class="num">Price</th><th scope="col">Condition</th><th scope="col">Counted</th><th scope="col">First seen</th></tr></thead>
          <tbody>${sales.sales.map(saleRow)}</tbody>
        </table></div>`}
      <nav class="pager" aria-label="Pages of sales">
        <span>${view.salesCursor ? html`<a href="${trackedSearchHref(id, period)}#sales">← Newest</a>` : ''}</span>
        <span>${sales.nextCursor ? html`<a href="${trackedSearchHref(id, period, sales.nextCursor)}#sales" rel="next">Older sales →</a>` : ''}</span>
      </nav>
    </section>
    <section class="panel" aria-labelledby="runs-heading">
      <h2 id="runs-heading">Runs</h2>
      ${runs.length === 0
        ? html`<p class="muted">No runs in the last 30 days.</p>`
        : html`<div class="table-wrap"><table class="runs-table">
          <caption>${runs.length > RUNS_SHOWN ? `The newest ${RUNS_SHOWN} of ${formatNumber(runs.length)} runs in the last 30 days` : `${plural(runs.length, 'run')} in the last 30 days`}</caption>
          <thead><tr><th scope="col">Started</th><th scope="col">Trigger</th><th scope="col">Status</th><th scope="col" class="num">Pages</th><th scope="col" class="num">Charged</th><th scope="col" class="num">New sales</th><th scope="col">Stop reason</th></tr></thead>
          <tbody>${runs.slice(0, RUNS_SHOWN).map(runRow)}</tbody>
        </table></div>`}
    </section>`,
  );
}

/** The confirmation the Delete button leads to: the only form that deletes, so nothing is deleted by one click. */
export function deleteConfirmPage(frame: Omit<PageFrame, 'title' | 'current'>, view: { csrfToken: string; trackedSearch: TrackedSearch }): string {
  const { trackedSearch } = view;
  const base = `/dashboard/tracked-searches/${trackedSearch.trackedSearchId}`;
  return confirmPage(frame, {
    title: 'Delete tracked search?',
    current: 'tracked',
    heading: `Delete the tracked search ${trackedSearch.name}?`,
    explanation: html`<p>It stops running, and <strong>its archive of ${plural(trackedSearch.archive.sales, 'sale')} is deleted with it</strong>, with its runs. This cannot be undone: a new tracked search starts with an empty archive and the marketplace shows only about 90 days of sales.</p>
      <p class="muted">You can download the archive as CSV first.</p>`,
    action: `${base}/delete`,
    csrfToken: view.csrfToken,
    button: 'Delete tracked search and archive',
    extras: html`<a class="button secondary" href="${base}/sales.csv" download>Download CSV</a>`,
    cancelHref: base,
  });
}
