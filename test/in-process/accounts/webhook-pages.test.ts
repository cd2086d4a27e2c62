import t from 'tap';
import { WEBHOOK_EVENT_TYPES, type Delivery, type Webhook } from '@comps/shared/contract/webhook';
import { newSecretToken } from '../../../services/accounts/src/sessions/secret-token.js';
import { sealNewKey } from '../../../services/accounts/src/web/new-key-flash.js';
import type { AssetStore } from '../../../services/accounts/src/web/static-assets.js';
import { canRetry, deliveryOutcome, disabledReasonText, endpointsUsed, lastResponse } from '../../../services/accounts/src/web/views/webhook-parts.js';
import { webhookPage } from '../../../services/accounts/src/web/views/webhook-page.js';
import { webhooksPage } from '../../../services/accounts/src/web/views/webhooks-page.js';
import { readEndpointForm, readEventsField } from '../../../services/accounts/src/web/webhook-form.js';
import { openWebhookSecret, sealWebhookSecret } from '../../../services/accounts/src/web/webhook-secret-flash.js';

// Fast, in-process: the webhook pages' forms, wording and markup. The pages themselves are driven through Caddy in test/stack/dashboard/webhooks-pages.test.ts.

const assets: AssetStore = { urlOf: (name) => `/assets/${name}`, middleware: () => async (_ctx, next) => next() };
const frame = { assets, account: { email: 'a@example.com', csrfToken: 'token-of-the-session' } };

const delivery = (over: Partial<Delivery>): Delivery => ({
  deliveryId: 'msg_01JDT3A9C0Q2X4R8S6V5W7Y9ZB',
  eventType: 'webhook.test',
  createdAt: '2026-11-25T10:00:00.000Z',
  status: 'pending',
  attempts: 0,
  lastAttemptAt: null,
  lastStatusCode: null,
  lastError: null,
  nextAttemptAt: '2026-11-25T10:00:00.000Z',
  ...over,
});

const endpoint: Webhook = {
  webhookId: 'wh_01JDT3A9C0Q2X4R8S6V5W7Y9ZB',
  url: 'https://hooks.example.com/in?a=1&b=<2>',
  events: ['job.completed', 'job.failed'],
  description: null,
  status: 'enabled',
  disabledReason: null,
  createdAt: '2026-11-25T09:00:00.000Z',
};

t.test('the create form is read with the API\'s rules, in sentences about the form', async (t) => {
  t.strictSame(readEndpointForm({ url: ' https://hooks.example.com/x ', events: ['job.failed', 'job.completed'], description: '' }), {
    ok: true,
    value: { url: 'https://hooks.example.com/x', events: ['job.completed', 'job.failed'] },
  }, 'trimmed, events in the contract\'s order, an empty description left out');
  t.match(readEndpointForm({ url: 'https://h.example.com', events: ['job.completed'], description: ' price sync ' }), { ok: true, value: { description: 'price sync' } });
  t.strictSame(readEndpointForm({ url: '  ', events: [], description: '' }), { ok: false, problems: ['Enter the URL to send events to.', 'Choose at least one event.'] });
  t.strictSame(readEndpointForm({ url: 'https://h.example.com', events: ['job.completed', 'job.exploded'], description: '' }), { ok: false, problems: ['Choose events from the list.'] });
  t.strictSame(readEndpointForm({ url: `https://h.example.com/${'x'.repeat(2000)}`, events: ['job.completed'], description: 'd'.repeat(201) }), {
    ok: false,
    problems: ['The URL must be at most 2000 characters.', 'The description must be at most 200 characters.'],
  });
  t.strictSame(readEventsField(['trackedSearch.run.failed']), { ok: true, value: ['trackedSearch.run.failed'] });
  t.strictSame(readEventsField([]), { ok: false, problems: ['Choose at least one event.'] });
});

t.test('a new secret is sealed to its session, and is no new key', async (t) => {
  const session = newSecretToken();
  const flash = { webhookId: endpoint.webhookId, secret: 'whsec_c2VjcmV0', previousSecretExpiresAt: '2026-11-26T10:00:00.000Z' };
  const sealed = sealWebhookSecret(session, flash);
  t.notMatch(sealed, /whsec_/, 'the secret is not readable in the cookie');
  t.strictSame(openWebhookSecret(session, sealed), flash);
  t.equal(openWebhookSecret(newSecretToken(), sealed), null, 'another session cannot open it');
  t.equal(openWebhookSecret(session, `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`), null, 'an altered cookie opens nothing');
  t.equal(openWebhookSecret(session, sealNewKey(session, { apiKeyId: 'key_01', key: 'sk_x' })), null, 'a new key\'s flash does not open as a secret\'s');
});

t.test('wording: the plan\'s limit, why an endpoint is disabled, the last response', async (t) => {
  t.equal(endpointsUsed(2, 5), '2 of 5 endpoints used');
  t.equal(endpointsUsed(1, 1), '1 of 1 endpoint used');
  t.equal(disabledReasonText({ status: 'enabled', disabledReason: null }), null);
  t.equal(disabledReasonText({ status: 'disabled', disabledReason: 'gone' }), 'it answered 410 Gone');
  t.equal(disabledReasonText({ status: 'disabled', disabledReason: 'failing' }), 'its deliveries all failed for 5 days');
  t.equal(disabledReasonText({ status: 'disabled', disabledReason: 'manual' }), 'disabled by you');
  t.equal(lastResponse(delivery({})).value, '<span class="muted">Not attempted yet</span>');
  t.equal(lastResponse(delivery({ attempts: 1, lastStatusCode: 500, lastError: 'Answered 500' })).value, '<code>500</code>', 'the code alone when the error says no more');
  t.equal(lastResponse(delivery({ attempts: 1, lastStatusCode: 410, lastError: 'Answered 410; the endpoint is disabled (gone)' })).value, '<code>410</code> <span class="muted">Answered 410; the endpoint is disabled (gone)</span>');
  t.equal(lastResponse(delivery({ attempts: 2, lastError: 'timed out after 15 s' })).value, 'timed out after 15 s');
  t.equal(lastResponse(delivery({ status: 'failed', lastError: 'The endpoint is disabled' })).value, 'The endpoint is disabled', 'ended without an attempt: why');
});

t.test('a delivery that did not get through can be retried; one delivered or not yet attempted cannot', async (t) => {
  t.equal(canRetry(delivery({ status: 'failed', attempts: 8, lastStatusCode: 500 })), true);
  t.equal(canRetry(delivery({ status: 'failed', attempts: 0, lastError: 'The endpoint is disabled' })), true);
  t.equal(canRetry(delivery({ status: 'pending', attempts: 1, lastStatusCode: 503 })), true, 'pending after a failed attempt: retry now');
  t.equal(canRetry(delivery({ status: 'pending', attempts: 0 })), false, 'not attempted yet');
  t.equal(canRetry(delivery({ status: 'succeeded', attempts: 1, lastStatusCode: 200 })), false);
});

t.test('the outcome of a test or a retry, as the log knows it', async (t) => {
  const href = '/dashboard/webhooks/wh_x?sent=msg_x';
  t.match(deliveryOutcome('The test event', delivery({ status: 'succeeded', attempts: 1, lastStatusCode: 204 }), href), { kind: 'success' });
  t.match(deliveryOutcome('The test event', delivery({ status: 'succeeded', attempts: 1, lastStatusCode: 204 }), href).message.value, /was delivered: your endpoint answered <code>204<\/code>/);
  const pending = deliveryOutcome('The test event', delivery({}), href);
  t.equal(pending.kind, 'info');
  t.match(pending.message.value, /is being sent\. <a href="\/dashboard\/webhooks\/wh_x\?sent=msg_x">Refresh<\/a>/);
  const retrying = deliveryOutcome('The delivery', delivery({ attempts: 1, lastStatusCode: 500, lastError: 'Answered 500', nextAttemptAt: '2026-11-25T10:05:00.000Z' }), href);
  t.equal(retrying.kind, 'warning');
  t.match(retrying.message.value, /was not delivered yet: <code>500<\/code>\. The next attempt is at <time datetime="2026-11-25T10:05:00.000Z">/);
  t.equal(deliveryOutcome('The delivery', delivery({ status: 'failed', attempts: 8, lastStatusCode: 500 }), href).kind, 'error');
  t.equal(deliveryOutcome('The test event', undefined, href).kind, 'info', 'not on this page of the log');
});

t.test('the pages: every form carries the session\'s token, values are escaped, the secret is shown when given', async (t) => {
  const list = webhooksPage(frame, { csrfToken: 'token-of-the-session', webhooks: [endpoint], limit: 5, problems: ['Choose at least one event.'], form: { url: 'https://x.example/"><script>', events: [], description: '' } });
  t.match(list, '1 of 5 endpoints used', 'the plan\'s limit used');
  t.notMatch(list, /<script>/, 'the entered URL is escaped');
  t.match(list, 'value="https://x.example/&quot;&gt;&lt;script&gt;"', 'and kept in the form');
  t.match(list, 'https://hooks.example.com/in?a=1&amp;b=&lt;2&gt;');
  t.equal((list.match(/name="events"/g) ?? []).length, WEBHOOK_EVENT_TYPES.length, 'a checkbox per event');
  t.notMatch(list, /name="events" value="[^"]+" checked/, 'none checked as posted');
  t.match(list, /role="alert" id="create-problems">Choose at least one event\./);

  const failed = delivery({ status: 'failed', attempts: 8, lastStatusCode: 500, lastError: 'Answered 500', nextAttemptAt: null });
  const page = webhookPage(frame, {
    csrfToken: 'token-of-the-session',
    webhook: endpoint,
    log: { deliveries: [failed, delivery({ deliveryId: 'msg_01JDT3A9C0Q2X4R8S6V5W7Y9ZC', status: 'succeeded', attempts: 1, lastStatusCode: 200 })], olderCursor: 'bXNnXzAx', paged: false },
    secret: { value: 'whsec_abc', previousSecretExpiresAt: null },
  });
  const forms = page.match(/<form [^>]*method="post"[\s\S]*?<\/form>/g) ?? [];
  t.equal(forms.length, 6, 'status, rotate, test, retry, events and sign-out forms');
  for (const form of forms) t.match(form, /name="_csrf" value="token-of-the-session"/, 'each with the token');
  t.equal((page.match(/\/deliveries\/msg_[0-9A-Z]+\/retry/g) ?? []).length, 1, 'Retry for the failed delivery only');
  t.match(page, 'value="whsec_abc"');
  t.match(page, 'it will not be shown again');
  t.match(page, 'copy-key.js', 'the copy button\'s script');
  t.match(page, '?cursor=bXNnXzAx', 'a link to older deliveries');
  t.notMatch(webhookPage(frame, { csrfToken: 'x', webhook: endpoint, log: { deliveries: [], olderCursor: null, paged: false } }), /whsec_|copy-key\.js/, 'no secret, no script, when none was just made');
});
