import type { HistoryEntry } from '@comps/shared/contract/request-history';
import { html } from '../html.js';
import { formatNumber, formatTime } from './format.js';
import { layout, notice, type PageFrame } from './layout.js';

export interface RequestsView {
  entries: HistoryEntry[];
  from: string;
  to: string;
  /** The query of the next (older) page, or null on the last. */
  olderQuery: string | null;
  /** Whether this is a later page (a link back to the newest is shown). */
  paged: boolean;
  error?: string | null;
}

function statusBadge(entry: HistoryEntry) {
  const kind = entry.status < 400 ? 'ok' : entry.status >= 500 ? 'bad' : 'neutral';
  return html`<span class="badge ${kind}">${entry.status}</span>${entry.code ? html` <code>${entry.code}</code>` : ''}`;
}

export function requestsPage(frame: Omit<PageFrame, 'title' | 'current'>, view: RequestsView): string {
  const filterQuery = new URLSearchParams({ ...(view.from ? { from: view.from } : {}), ...(view.to ? { to: view.to } : {}) }).toString();
  return layout(
    { ...frame, title: 'Requests', current: 'requests' },
    html`<h1>Requests</h1>
    <p class="lead">Every request your keys made in the last 30 days, newest first, as <code>GET /requests</code> returns them. Search text is never stored: it shows as <code>[redacted]</code>.</p>
    <section class="panel" aria-labelledby="filter-heading">
      <h2 id="filter-heading" class="visually-hidden">Filter</h2>
      ${notice('error', view.error)}
      <form class="inline" method="get" action="/dashboard/requests">
        <div class="field"><label for="from">From</label><input id="from" name="from" type="date" value="${view.from}"></div>
        <div class="field"><label for="to">To</label><input id="to" name="to" type="date" value="${view.to}"></div>
        <button type="submit">Filter</button>
        ${view.from || view.to ? html`<a href="/dashboard/requests">Clear</a>` : ''}
      </form>
      <p class="hint">Dates are UTC days, both included.</p>
    </section>
    <section class="panel" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      ${view.entries.length === 0
        ? html`<p class="muted">No requests ${view.from || view.to ? 'in this range' : 'yet'}.</p>`
        : html`<div class="table-wrap"><table>
          <thead><tr>
            <th scope="col">Time</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col" class="num">Charged</th>
            <th scope="col" class="num">Results</th><th scope="col">Site</th><th scope="col">Keyword</th><th scope="col" class="num">Duration</th><th scope="col">Key</th>
          </tr></thead>
          <tbody>${view.entries.map(
            (entry) => html`<tr>
              <td class="nowrap">${formatTime(entry.createdAt)}</td>
              <td><code class="nowrap">${entry.method} ${entry.path}</code><br><code class="small muted" title="Request id">${entry.requestId}</code>${entry.jobId ? html`<br><span class="small muted">job <code>${entry.jobId}</code></span>` : ''}</td>
              <td>${statusBadge(entry)}</td>
              <td class="num">${entry.charged ? 'Yes' : 'No'}</td>
              <td class="num">${entry.resultCount === null ? '–' : formatNumber(entry.resultCount)}</td>
              <td>${entry.marketSite ?? '–'}</td>
              <td>${entry.keyword ?? '–'}</td>
              <td class="num nowrap">${formatNumber(entry.durationMs)} ms</td>
              <td>${entry.apiKeyPrefix ? html`<code class="nowrap">${entry.apiKeyPrefix}…</code>` : '–'}</td>
            </tr>`,
          )}</tbody>
        </table></div>`}
      <nav class="pager" aria-label="Pages">
        <span>${view.paged ? html`<a href="/dashboard/requests${filterQuery ? `?${filterQuery}` : ''}">← Newest</a>` : ''}</span>
        <span>${view.olderQuery ? html`<a href="/dashboard/requests?${view.olderQuery}" rel="next">Older →</a>` : ''}</span>
      </nav>
    </section>`,
  );
}
