import type { Overview } from '../../dashboard/dashboard-service.js';
import { html } from '../html.js';
import { dailyChart } from './daily-chart.js';
import { formatNumber, formatTime, monthName, plural } from './format.js';
import { layout, type PageFrame } from './layout.js';

export interface OverviewView {
  overview: Overview;
  /** The address callers use, for the example (the site's own origin). */
  baseUrl: string;
  hasKeys: boolean;
}

export function overviewPage(frame: Omit<PageFrame, 'title' | 'current'>, { overview, baseUrl, hasKeys }: OverviewView): string {
  const { usage } = overview;
  const { plan } = usage;
  const periodStart = new Date(usage.period.start);
  const periodEnd = new Date(usage.period.end);
  const share = plan.monthlyQuota > 0 ? Math.min(1, usage.used / plan.monthlyQuota) : 1;
  const percent = Math.round(share * 1000) / 10;
  return layout(
    { ...frame, title: 'Overview', current: 'overview' },
    html`<h1>Overview</h1>
    <div class="grid">
      <section class="panel" aria-labelledby="plan-heading">
        <h2 id="plan-heading">Plan: ${plan.name}</h2>
        <dl class="facts">
          <dt>Monthly quota</dt><dd>${plural(plan.monthlyQuota, 'request')}</dd>
          <dt>Rate limit</dt><dd>${plural(plan.rateLimit.requests, 'request')} per ${plural(plan.rateLimit.windowSeconds, 'second')}</dd>
          <dt>Concurrent requests</dt><dd>${formatNumber(plan.concurrency)}</dd>
          <dt>Active background jobs</dt><dd>${formatNumber(plan.activeJobs)}</dd>
        </dl>
      </section>
      <section class="panel" aria-labelledby="usage-heading">
        <h2 id="usage-heading">This month</h2>
        <p class="big-number"><span data-testid="used">${formatNumber(usage.used)}</span> <span class="muted">of ${formatNumber(plan.monthlyQuota)} requests used</span></p>
        <label class="visually-hidden" for="usage-bar">Requests used this month</label>
        <progress id="usage-bar" class="usage ${share >= 0.9 ? 'high' : ''}" max="${Math.max(1, plan.monthlyQuota)}" value="${Math.min(usage.used, plan.monthlyQuota)}">${percent}%</progress>
        <p><strong data-testid="remaining">${formatNumber(usage.remaining)}</strong> remaining · ${percent}% used</p>
        <p class="muted">The quota resets on ${formatTime(periodEnd)}. Counting since ${formatTime(periodStart)}. Failed requests are never charged.</p>
      </section>
    </div>
    <section class="panel" aria-labelledby="daily-heading">
      <h2 id="daily-heading">Requests per day</h2>
      ${dailyChart(overview.days, overview.today, monthName(periodStart))}
    </section>
    <section class="panel" aria-labelledby="start-heading">
      <h2 id="start-heading">Quick start</h2>
      ${hasKeys ? html`<p>Call the API with one of your <a href="/dashboard/keys">API keys</a> as a bearer token:</p>` : html`<p>First <a href="/dashboard/keys">create an API key</a>, then call the API with it as a bearer token:</p>`}
      <pre class="snippet"><code>export COMPS_API_KEY=sk_…   # from the API keys page
curl -H "Authorization: Bearer $COMPS_API_KEY" \\
  "${baseUrl}/v1/scrape?keyword=nintendo+switch&amp;count=20"</code></pre>
      <p class="muted">Every endpoint, with its parameters and an example, is in the <a href="/docs">API reference</a>.</p>
    </section>`,
  );
}
