import type { JobSummary } from '@comps/shared/contract/job';
import { html } from '../html.js';
import { formatNumber, formatTime } from './format.js';
import { layout, notice, type PageFrame } from './layout.js';

export interface JobsView {
  jobs: JobSummary[];
  /** Set when the jobs service could not be asked: the page says so instead of an empty list. */
  unavailable?: string | null;
}

export const STATUS_BADGE: Record<JobSummary['status'], string> = {
  queued: 'neutral',
  running: 'busy',
  completed: 'ok',
  failed: 'bad',
  cancelled: 'neutral',
};

export const STOP_REASONS: Record<NonNullable<JobSummary['stopReason']>, string> = {
  max_pages: 'all pages fetched',
  empty_page: 'no more results',
  repeated_page: 'no more results',
  cancelled: 'cancelled',
  quota_exhausted: 'monthly quota used up',
  error: 'an error',
};

function jobRow(job: JobSummary) {
  const pages = job.progress.pagesFetched;
  const ended = job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';
  const hasResults = job.progress.itemsCollected > 0;
  return html`<tr data-job-id="${job.jobId}">
    <td><a href="/dashboard/jobs/${job.jobId}"><strong>${job.request.keyword}</strong></a><br><span class="muted">${job.request.marketSite} · <code>${job.jobId}</code></span></td>
    <td><span class="badge ${STATUS_BADGE[job.status]}">${job.status}</span>${job.stopReason ? html`<br><span class="muted">${STOP_REASONS[job.stopReason]}</span>` : ''}
      ${job.error ? html`<br><span class="muted">${job.error.error}</span>` : ''}</td>
    <td>
      <label class="visually-hidden" for="progress-${job.jobId}">Pages fetched of ${job.jobId}</label>
      <progress class="job" id="progress-${job.jobId}" max="${job.request.maxPages}" value="${ended ? job.request.maxPages : pages}"></progress>
      <br><span class="muted">${formatNumber(pages)} of ${formatNumber(job.request.maxPages)} pages${ended && pages < job.request.maxPages ? ' (stopped early)' : ''}</span>
    </td>
    <td class="num">${formatNumber(job.progress.itemsCollected)}</td>
    <td class="num">${formatNumber(job.progress.pagesCharged)}</td>
    <td>${formatTime(job.createdAt)}${job.expiresAt ? html`<br><span class="muted">kept until ${formatTime(job.expiresAt)}</span>` : ''}</td>
    <td>${hasResults ? html`<a class="button secondary" href="/dashboard/jobs/${job.jobId}/download.csv" download>Download CSV</a>` : html`<span class="muted">No results yet</span>`}</td>
  </tr>`;
}

export function jobsPage(frame: Omit<PageFrame, 'title' | 'current'>, view: JobsView): string {
  return layout(
    { ...frame, title: 'Jobs', current: 'jobs' },
    html`<h1>Jobs</h1>
    <p class="lead">Background searches over many pages (<code>POST /v1/scrape/max</code>). Results are kept for 24 hours after a job ends; a running job's partial results can be downloaded too.</p>
    ${notice('warning', view.unavailable)}
    <section class="panel" aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">Your jobs</h2>
      ${view.jobs.length === 0
        ? html`<p class="muted">${view.unavailable ? 'The list could not be loaded.' : 'No jobs in the last 24 hours. Start one with POST /v1/scrape/max.'}</p>`
        : html`<div class="table-wrap"><table>
          <thead><tr><th scope="col">Search</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col" class="num">Items</th><th scope="col" class="num">Charged</th><th scope="col">Created</th><th scope="col">Results</th></tr></thead>
          <tbody>${view.jobs.map(jobRow)}</tbody>
        </table></div>`}
    </section>`,
  );
}
