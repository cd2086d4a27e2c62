import { WEBHOOK_LIMITS, type Delivery, type Webhook } from '@comps/shared/contract/webhook';
import { html, type SafeHtml } from '../html.js';
import { formatNumber, formatTime } from './format.js';
import { layout, notice, type PageFrame } from './layout.js';
import { canRetry, deliveryStatus, endpointStatus, eventCheckboxes, eventList, lastResponse, type OutcomeNotice } from './webhook-parts.js';
import { confirmPage } from './confirm-page.js';

export interface DeliveryLog {
  deliveries: Delivery[];
  /** The `cursor` of the next (older) page, null after the last. */
  olderCursor: string | null;
  /** Whether this is a page after the first. */
  paged: boolean;
  /** Why the log shows the newest page rather than the one asked for, or why it could not be read. */
  problem?: string | null;
}

export interface WebhookView {
  csrfToken: string;
  webhook: Webhook;
  log: DeliveryLog;
  /** The secret just made or rotated: shown this once. */
  secret?: { value: string; previousSecretExpiresAt: string | null } | null;
  /** What the last form did (a test sent, a retry, a change). */
  outcome?: OutcomeNotice | null;
  /** Why the events form was refused. */
  eventsProblem?: string | null;
  /** The events as posted, when they were refused. */
  events?: string[];
}

const HOURS = WEBHOOK_LIMITS.rotationOverlapMs / 3_600_000;

function secretPanel(secret: NonNullable<WebhookView['secret']>) {
  return html`<section class="panel new-key new-secret" aria-labelledby="new-secret-heading">
    <h2 id="new-secret-heading">${secret.previousSecretExpiresAt ? 'Your new signing secret' : 'Your signing secret'}</h2>
    <p><strong>Copy it now: it will not be shown again.</strong> Your receiver verifies each delivery's <code>webhook-signature</code> with it.</p>
    ${secret.previousSecretExpiresAt
      ? html`<p>The old secret stays valid for ${HOURS} hours, until ${formatTime(secret.previousSecretExpiresAt)}: until then every delivery is signed with both, so your receiver can switch without losing any.</p>`
      : ''}
    <div class="key-row">
      <label class="visually-hidden" for="new-secret">Signing secret</label>
      <input id="new-secret" type="text" readonly value="${secret.value}" spellcheck="false" autocomplete="off">
      <button type="button" class="secondary" data-copy-target="new-secret" data-copy-status="copy-status" hidden>Copy</button>
    </div>
    <p id="copy-status" class="muted" role="status"></p>
  </section>`;
}

function details(view: WebhookView) {
  const { webhook } = view;
  const base = `/dashboard/webhooks/${webhook.webhookId}`;
  const enabled = webhook.status === 'enabled';
  return html`<section class="panel" aria-labelledby="endpoint-heading">
    <h2 id="endpoint-heading" class="visually-hidden">The endpoint</h2>
    <dl class="facts endpoint-facts">
      <dt>URL</dt><dd class="endpoint-url">${webhook.url}</dd>
      ${webhook.description ? html`<dt>Description</dt><dd>${webhook.description}</dd>` : ''}
      <dt>Status</dt><dd data-endpoint-status>${endpointStatus(webhook)}</dd>
      <dt>Events</dt><dd>${eventList(webhook.events)}</dd>
      <dt>Created</dt><dd>${formatTime(webhook.createdAt)}</dd>
      <dt>Id</dt><dd><code>${webhook.webhookId}</code></dd>
    </dl>
    <div class="actions endpoint-actions">
      <form method="post" action="${base}/status">
        <input type="hidden" name="_csrf" value="${view.csrfToken}">
        <input type="hidden" name="status" value="${enabled ? 'disabled' : 'enabled'}">
        <button type="submit" class="secondary">${enabled ? 'Disable' : 'Enable'}</button>
      </form>
      <form method="post" action="${base}/secret">
        <input type="hidden" name="_csrf" value="${view.csrfToken}">
        <button type="submit" class="secondary">Rotate secret</button>
      </form>
      <form method="get" action="${base}/delete">
        <button type="submit" class="danger-outline">Delete</button>
      </form>
    </div>
    ${enabled ? '' : html`<p class="hint">Nothing is delivered while the endpoint is disabled. Enabling it starts afresh.</p>`}
  </section>`;
}

function testPanel(view: WebhookView) {
  const enabled = view.webhook.status === 'enabled';
  return html`<section class="panel" aria-labelledby="test-heading">
    <h2 id="test-heading">Send a test event</h2>
    <form class="inline" method="post" action="/dashboard/webhooks/${view.webhook.webhookId}/test">
      <input type="hidden" name="_csrf" value="${view.csrfToken}">
      <p class="hint">A signed <code>webhook.test</code> delivery, sent now; its outcome shows in the log below.${enabled ? '' : ' Enable the endpoint first.'}</p>
      <button type="submit" ${enabled ? '' : html`disabled`}>Send test event</button>
    </form>
  </section>`;
}

function eventsPanel(view: WebhookView) {
  return html`<section class="panel" aria-labelledby="events-heading">
    <h2 id="events-heading">Change events</h2>
    ${notice('error', view.eventsProblem)}
    <form class="webhook-form" method="post" action="/dashboard/webhooks/${view.webhook.webhookId}/events">
      <input type="hidden" name="_csrf" value="${view.csrfToken}">
      ${eventCheckboxes(view.events ?? view.webhook.events, 'edit', 'Events to deliver')}
      <div><button type="submit" class="secondary">Save events</button></div>
    </form>
  </section>`;
}

function deliveryRow(view: WebhookView, delivery: Delivery): SafeHtml {
  return html`<tr data-delivery-id="${delivery.deliveryId}">
    <td><code>${delivery.eventType}</code><br><span class="muted">${formatTime(delivery.createdAt)}</span></td>
    <td><code class="delivery-id">${delivery.deliveryId}</code></td>
    <td>${deliveryStatus(delivery)}</td>
    <td class="num">${formatNumber(delivery.attempts)}</td>
    <td>${lastResponse(delivery)}${delivery.lastAttemptAt ? html`<br><span class="muted">${formatTime(delivery.lastAttemptAt)}</span>` : ''}</td>
    <td>${delivery.nextAttemptAt ? formatTime(delivery.nextAttemptAt) : html`<span class="muted">None</span>`}</td>
    <td>${canRetry(delivery)
      ? html`<form method="post" action="/dashboard/webhooks/${view.webhook.webhookId}/deliveries/${delivery.deliveryId}/retry">
          <input type="hidden" name="_csrf" value="${view.csrfToken}">
          <button type="submit" class="secondary small-button" aria-label="Retry ${delivery.deliveryId}">Retry</button>
        </form>`
      : ''}</td>
  </tr>`;
}

function deliveryLog(view: WebhookView) {
  const { log } = view;
  const base = `/dashboard/webhooks/${view.webhook.webhookId}`;
  return html`<section class="panel" aria-labelledby="log-heading">
    <h2 id="log-heading">Deliveries</h2>
    <p class="hint">The last ${WEBHOOK_LIMITS.deliveryRetentionDays} days, newest first. The <code>webhook-id</code> header is the same on every attempt of a delivery: receivers de-duplicate by it.</p>
    ${notice('warning', log.problem)}
    ${log.deliveries.length === 0
      ? html`<p class="muted">${log.paged ? 'No older deliveries.' : 'No deliveries yet. Send a test event to see one.'}</p>`
      : html`<div class="table-wrap"><table class="delivery-log">
        <thead><tr><th scope="col">Event</th><th scope="col">webhook-id</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Last response</th><th scope="col">Next attempt</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>${log.deliveries.map((delivery) => deliveryRow(view, delivery))}</tbody>
      </table></div>`}
    ${log.paged || log.olderCursor
      ? html`<nav class="pager" aria-label="Delivery pages">
          ${log.paged ? html`<a href="${base}">Newest deliveries</a>` : html`<span></span>`}
          ${log.olderCursor ? html`<a href="${base}?cursor=${encodeURIComponent(log.olderCursor)}">Older deliveries</a>` : ''}
        </nav>`
      : ''}
  </section>`;
}

/** An endpoint: what it is, its actions, a test, its events, and its delivery log. */
export function webhookPage(frame: Omit<PageFrame, 'title' | 'current'>, view: WebhookView): string {
  return layout(
    { ...frame, title: 'Webhook endpoint', current: 'webhooks', scripts: view.secret ? ['copy-key.js'] : [] },
    html`<p class="breadcrumb"><a href="/dashboard/webhooks">Webhooks</a></p>
    <h1>Webhook endpoint</h1>
    ${view.secret ? secretPanel(view.secret) : ''}
    ${view.outcome ? notice(view.outcome.kind, view.outcome.message) : ''}
    ${details(view)}
    ${testPanel(view)}
    ${deliveryLog(view)}
    ${eventsPanel(view)}`,
  );
}

/** The confirmation a Delete button leads to: the only form that deletes, so nothing is deleted by one click. */
export function deleteWebhookPage(frame: Omit<PageFrame, 'title' | 'current'>, view: { csrfToken: string; webhook: Webhook }): string {
  return confirmPage(frame, {
    title: 'Delete endpoint?',
    current: 'webhooks',
    heading: 'Delete this endpoint?',
    explanation: html`<p class="endpoint-url"><code>${view.webhook.url}</code></p>
      <p>Nothing more will be sent to it, its deliveries still pending included, and its signing secrets are forgotten. This cannot be undone: you would add the endpoint again and get a new secret.</p>`,
    action: `/dashboard/webhooks/${view.webhook.webhookId}/delete`,
    csrfToken: view.csrfToken,
    button: 'Delete endpoint',
    cancelHref: `/dashboard/webhooks/${view.webhook.webhookId}`,
  });
}
