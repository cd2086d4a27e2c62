import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, type Webhook } from '@comps/shared/contract/webhook';
import { html } from '../html.js';
import type { EndpointFormValues } from '../webhook-form.js';
import { formatTime } from './format.js';
import { layout, notice, type PageFrame } from './layout.js';
import { endpointStatus, endpointsUsed, eventCheckboxes, eventList } from './webhook-parts.js';

export interface WebhooksView {
  csrfToken: string;
  webhooks: Webhook[];
  /** The plan's number of endpoints. */
  limit: number;
  /** The form as posted, when it was refused; a fresh form otherwise. */
  form?: EndpointFormValues;
  /** Why the form was refused. */
  problems?: string[];
  /** The endpoint just deleted. */
  deletedId?: string | null;
}

/** A fresh form subscribes to every event: what most receivers want, and easy to narrow. */
const FRESH_FORM: EndpointFormValues = { url: '', events: [...WEBHOOK_EVENT_TYPES], description: '' };

function endpointRow(webhook: Webhook) {
  return html`<tr data-webhook-id="${webhook.webhookId}">
    <td class="endpoint-url"><a href="/dashboard/webhooks/${webhook.webhookId}">${webhook.url}</a>${webhook.description ? html`<br><span class="muted">${webhook.description}</span>` : ''}</td>
    <td>${eventList(webhook.events)}</td>
    <td>${endpointStatus(webhook)}</td>
    <td>${formatTime(webhook.createdAt)}</td>
  </tr>`;
}

function createForm(view: WebhooksView) {
  const form = view.form ?? FRESH_FORM;
  const problems = view.problems ?? [];
  const invalid = problems.length > 0 ? html`aria-invalid="true" aria-describedby="create-problems"` : '';
  return html`<section class="panel" aria-labelledby="create-heading">
    <h2 id="create-heading">Add an endpoint</h2>
    ${problems.length > 0
      ? html`<div class="notice error" role="alert" id="create-problems">${problems.length === 1 ? problems[0] : html`<ul>${problems.map((problem) => html`<li>${problem}</li>`)}</ul>`}</div>`
      : ''}
    <form class="webhook-form" method="post" action="/dashboard/webhooks">
      <input type="hidden" name="_csrf" value="${view.csrfToken}">
      <div class="field">
        <label for="webhook-url">URL</label>
        <input id="webhook-url" name="url" type="url" inputmode="url" maxlength="${WEBHOOK_LIMITS.urlMaxLength}" placeholder="https://example.com/hooks/comps" value="${form.url}" aria-describedby="webhook-url-hint" ${invalid}>
        <span class="hint" id="webhook-url-hint">An <code>https</code> address on the public internet; each event is POSTed to it, signed.</span>
      </div>
      ${eventCheckboxes(form.events, 'create')}
      <div class="field">
        <label for="webhook-description">Description <span class="hint">(optional)</span></label>
        <input id="webhook-description" name="description" type="text" maxlength="${WEBHOOK_LIMITS.descriptionMaxLength}" placeholder="e.g. price-sync worker" value="${form.description}">
      </div>
      <div><button type="submit">Add endpoint</button></div>
    </form>
  </section>`;
}

export function webhooksPage(frame: Omit<PageFrame, 'title' | 'current'>, view: WebhooksView): string {
  return layout(
    { ...frame, title: 'Webhooks', current: 'webhooks' },
    html`<h1>Webhooks</h1>
    <p class="lead">We POST to your endpoints when a job or a tracked search's run ends, signed as the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> specification says, and retry for about 28 hours until they answer 2xx.</p>
    ${view.deletedId ? notice('success', html`The endpoint <code>${view.deletedId}</code> is deleted; nothing more is sent to it.`) : ''}
    <section class="panel" aria-labelledby="list-heading">
      <h2 id="list-heading">Your endpoints</h2>
      <p class="endpoint-usage"><strong>${endpointsUsed(view.webhooks.length, view.limit)}</strong> <span class="muted">(your plan's limit)</span></p>
      ${view.webhooks.length === 0
        ? html`<p class="muted">No endpoints yet.${view.limit > 0 ? ' Add one below to hear when your jobs and tracked searches end.' : ''}</p>`
        : html`<div class="table-wrap"><table>
          <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
          <tbody>${view.webhooks.map(endpointRow)}</tbody>
        </table></div>`}
    </section>
    ${view.limit > 0 ? createForm(view) : notice('info', 'Your plan includes no webhook endpoints.')}`,
  );
}
