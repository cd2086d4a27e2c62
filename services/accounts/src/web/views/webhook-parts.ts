import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, type Delivery, type DisabledReason, type Webhook, type WebhookEventType } from '@comps/shared/contract/webhook';
import { html, type SafeHtml } from '../html.js';
import { formatNumber, formatTime, plural } from './format.js';

/** The pieces the webhook pages share: events, an endpoint's status, a delivery's outcome. */

const EVENT_MEANINGS: Record<WebhookEventType, string> = {
  'job.completed': 'a background job finished',
  'job.failed': 'a background job stopped on an error or the quota',
  'job.cancelled': 'a background job was cancelled',
  'trackedSearch.run.completed': "a tracked search's run finished",
  'trackedSearch.run.failed': "a tracked search's run failed",
};

/** The events as checkboxes (`name="events"`), the chosen ones checked; ids start with `idPrefix` (two forms on one page). */
export function eventCheckboxes(chosen: readonly string[], idPrefix: string, legend = 'Events'): SafeHtml {
  return html`<fieldset class="event-choices">
    <legend>${legend}</legend>
    ${WEBHOOK_EVENT_TYPES.map(
      (type) => html`<div class="event-choice">
        <input type="checkbox" id="${idPrefix}-${type}" name="events" value="${type}" ${chosen.includes(type) ? html`checked` : ''}>
        <label for="${idPrefix}-${type}"><code>${type}</code> <span class="hint">${EVENT_MEANINGS[type]}</span></label>
      </div>`,
    )}
    <p class="hint">A test event (<code>webhook.test</code>) can be sent to any endpoint, whatever it subscribes to.</p>
  </fieldset>`;
}

export function eventList(events: readonly string[]): SafeHtml {
  return html`<ul class="event-list">${events.map((type) => html`<li><code>${type}</code></li>`)}</ul>`;
}

const DISABLED_REASONS: Record<DisabledReason, string> = {
  gone: 'it answered 410 Gone',
  failing: `its deliveries all failed for ${WEBHOOK_LIMITS.failingDisableMs / 86_400_000} days`,
  manual: 'disabled by you',
};

/** Why a disabled endpoint is, in words (nothing for an enabled one). */
export function disabledReasonText(webhook: Pick<Webhook, 'status' | 'disabledReason'>): string | null {
  if (webhook.status !== 'disabled') return null;
  return webhook.disabledReason ? DISABLED_REASONS[webhook.disabledReason] : 'disabled';
}

export function endpointStatus(webhook: Pick<Webhook, 'status' | 'disabledReason'>): SafeHtml {
  const reason = disabledReasonText(webhook);
  return reason === null ? html`<span class="badge ok">Enabled</span>` : html`<span class="badge bad">Disabled</span> <span class="muted">${reason}</span>`;
}

/** "2 of 5 endpoints used". */
export function endpointsUsed(count: number, limit: number): string {
  return `${formatNumber(count)} of ${plural(limit, 'endpoint')} used`;
}

const OK = (code: number | null) => code !== null && code >= 200 && code < 300;

export function deliveryStatus(delivery: Delivery): SafeHtml {
  switch (delivery.status) {
    case 'succeeded':
      return html`<span class="badge ok">Delivered</span>`;
    case 'failed':
      return html`<span class="badge bad">Failed</span>`;
    case 'pending':
      return delivery.attempts === 0 ? html`<span class="badge busy">Pending</span>` : html`<span class="badge warn">Retrying</span>`;
  }
}

/** The last attempt's answer: its status code, and the error when it says more than the code. */
export function lastResponse(delivery: Delivery): SafeHtml {
  const code = delivery.lastStatusCode;
  // Ended or held back without an attempt (the endpoint disabled or deleted, the message not signed yet): the error says why.
  if (delivery.attempts === 0 && code === null) return delivery.lastError ? html`${delivery.lastError}` : html`<span class="muted">Not attempted yet</span>`;
  const error = delivery.lastError && delivery.lastError !== `Answered ${code}` ? delivery.lastError : null;
  if (code === null) return html`${error ?? 'No answer'}`;
  return html`<code>${code}</code>${error ? html` <span class="muted">${error}</span>` : ''}`;
}

/**
 * A delivery that did not get through can be attempted again now: a failed one (its attempts are
 * over), or a pending one whose last attempt failed (rather than waiting for its next).
 */
export function canRetry(delivery: Delivery): boolean {
  return delivery.status === 'failed' || (delivery.status === 'pending' && delivery.attempts > 0 && !OK(delivery.lastStatusCode));
}

export type OutcomeNotice = { kind: 'success' | 'info' | 'warning' | 'error'; message: SafeHtml };

/** What became of a delivery just sent (a test) or attempted again (a retry), as far as the log knows now. */
export function deliveryOutcome(subject: string, delivery: Delivery | undefined, refreshHref: string): OutcomeNotice {
  const refresh = html`<a href="${refreshHref}">Refresh</a> to see its outcome.`;
  if (!delivery) return { kind: 'info', message: html`${subject} was sent. ${refresh}` };
  const id = html`<code>${delivery.deliveryId}</code>`;
  switch (delivery.status) {
    case 'succeeded':
      return { kind: 'success', message: html`${subject} (${id}) was delivered: your endpoint answered <code>${delivery.lastStatusCode ?? ''}</code>.` };
    case 'failed':
      return { kind: 'error', message: html`${subject} (${id}) was not delivered: ${lastResponse(delivery)}. No attempt is left; retry it when your endpoint is fixed.` };
    case 'pending':
      return delivery.attempts === 0
        ? { kind: 'info', message: html`${subject} (${id}) is being sent. ${refresh}` }
        : {
            kind: 'warning',
            message: html`${subject} (${id}) was not delivered yet: ${lastResponse(delivery)}.${delivery.nextAttemptAt ? html` The next attempt is at ${formatTime(delivery.nextAttemptAt)}.` : ''}`,
          };
  }
}
