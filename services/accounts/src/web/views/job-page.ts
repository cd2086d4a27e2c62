import type { JobItem, JobRecord } from '@comps/shared/contract/job';
import { html, type SafeHtml } from '../html.js';
import { compsSummary } from './comps-summary.js';
import { formatNumber, formatTime, plural } from './format.js';
import { STATUS_BADGE, STOP_REASONS } from './jobs-page.js';
import { layout, type PageFrame } from './layout.js';
import { compsCharts, listingsTable, type CountedSale } from './listings-view.js';

/** How often the page of a job that runs reloads itself. */
export const JOB_REFRESH_SECONDS = 3;

export interface JobPageView {
  /** The job (its items: those of the table). */
  job: JobRecord;
  /** Every counted item's unit price and sold date: what the charts draw. */
  counted: readonly CountedSale[];
  /** The items the table shows: a page of them from `offset`. */
  table: { items: JobItem[]; offset: number; pageSize: number };
}

function isRunning(job: JobRecord): boolean {
  return job.status === 'queued' || job.status === 'running';
}

function progressPanel(job: JobRecord): SafeHtml {
  const { progress, request } = job;
  const running = isRunning(job);
  return html`<section class="panel" aria-labelledby="progress-heading" id="progress">
    <h2 id="progress-heading">Progress</h2>
    <p><span class="badge ${STATUS_BADGE[job.status]}" data-testid="job-status">${job.status}</span>${job.stopReason ? html` <span class="muted">${STOP_REASONS[job.stopReason]}</span>` : ''}</p>
    ${job.error ? html`<p class="muted">${job.error.error} (<code>${job.error.code}</code>)</p>` : ''}
    <label class="visually-hidden" for="job-progress">Pages fetched</label>
    <progress class="usage" id="job-progress" max="${request.maxPages}" value="${job.status === 'completed' ? request.maxPages : progress.pagesFetched}"></progress>
    <dl class="facts job-facts">
      <dt>Pages fetched</dt><dd>${formatNumber(progress.pagesFetched)} of ${formatNumber(request.maxPages)}</dd>
      <dt>Pages charged</dt><dd>${formatNumber(progress.pagesCharged)}</dd>
      <dt>Items collected</dt><dd data-testid="items-collected">${formatNumber(progress.itemsCollected)}</dd>
      <dt>Site</dt><dd>${request.marketSite}, ${plural(request.count, 'listing')} a page</dd>
      <dt>Created</dt><dd>${formatTime(job.createdAt)}</dd>
      ${job.finishedAt ? html`<dt>Finished</dt><dd>${formatTime(job.finishedAt)}</dd>` : ''}
      ${job.expiresAt ? html`<dt>Kept until</dt><dd>${formatTime(job.expiresAt)}</dd>` : ''}
    </dl>
    <div class="actions job-actions">
      ${progress.itemsCollected > 0
        ? html`<a class="button secondary" href="/dashboard/jobs/${job.jobId}/download.csv" download>Download CSV</a>`
        : html`<span class="muted">No results yet</span>`}
      ${running ? html`<span class="muted">This page reloads every ${JOB_REFRESH_SECONDS} seconds while the job runs.</span>` : ''}
    </div>
  </section>`;
}

function pager(job: JobRecord, table: JobPageView['table']): SafeHtml {
  const total = job.itemsPage.total;
  const newer = table.offset > 0 ? Math.max(0, table.offset - table.pageSize) : null;
  const older = table.offset + table.pageSize < total ? table.offset + table.pageSize : null;
  if (newer === null && older === null) return html``;
  const link = (offset: number) => `/dashboard/jobs/${job.jobId}${offset > 0 ? `?offset=${offset}` : ''}#items`;
  return html`<nav class="pager" aria-label="Items">
    ${newer !== null ? html`<a href="${link(newer)}">← Items ${formatNumber(newer + 1)}–${formatNumber(newer + table.pageSize)}</a>` : html`<span></span>`}
    ${older !== null ? html`<a href="${link(older)}">Items ${formatNumber(older + 1)}–${formatNumber(Math.min(total, older + table.pageSize))} →</a>` : html`<span></span>`}
  </nav>`;
}

function resultsPanels(view: JobPageView): SafeHtml {
  const { job, table } = view;
  const total = job.itemsPage.total;
  if (job.progress.itemsCollected === 0) return html`<p class="muted">${isRunning(job) ? 'No items collected yet.' : 'The job ended without collecting an item.'}</p>`;
  const items =
    job.request.resultType === 'download'
      ? html`<p class="muted">This job keeps its items for its CSV only (<code>resultType: download</code>): download it to see them.</p>`
      : html`${listingsTable(table.items, `Items ${formatNumber(table.offset + 1)}–${formatNumber(table.offset + table.items.length)} of ${formatNumber(total)}, in the order they were collected; each opens on the marketplace`)}
        ${pager(job, table)}`;
  return html`<section class="panel" aria-labelledby="stats-heading">
      <h2 id="stats-heading">Prices over every item collected</h2>
      ${compsSummary(job.stats, 'job-comps')}
    </section>
    <section class="panel" aria-labelledby="charts-heading">
      <h2 id="charts-heading">Charts</h2>
      ${compsCharts(job.stats, view.counted, { idPrefix: 'job' })}
    </section>
    <section class="panel" aria-labelledby="items-heading" id="items">
      <h2 id="items-heading">Items</h2>
      ${items}
    </section>`;
}

/** One job: its progress (the page reloads itself while it runs), its statistics over every item, the charts, and its items a page at a time. */
export function jobPage(frame: Omit<PageFrame, 'title' | 'current'>, view: JobPageView): string {
  const { job } = view;
  return layout(
    { ...frame, title: `Job: ${job.request.keyword}`, current: 'jobs', refreshSeconds: isRunning(job) ? JOB_REFRESH_SECONDS : undefined },
    html`<p class="breadcrumb"><a href="/dashboard/jobs">← Jobs</a></p>
    <h1>Job “${job.request.keyword}”</h1>
    <p class="lead">A background search of up to ${plural(job.request.maxPages, 'page')} (<code>POST /v1/scrape/max</code>) · <code>${job.jobId}</code></p>
    ${progressPanel(job)}
    ${resultsPanels(view)}`,
  );
}
