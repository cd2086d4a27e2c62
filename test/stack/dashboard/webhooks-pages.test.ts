import t from 'tap';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_SECRET_PATTERN } from '@comps/shared/contract/webhook';
import { launchBrowser, openPage, saveScreenshot } from '../../helpers/browser.js';
import { FormClient, signUpInBrowser, uniqueEmail } from '../../helpers/dashboard.js';
import { eventually } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';
import { ALLOWED, receiver } from '../../helpers/webhook-receiver.js';

// The operator allows a receiver on 127.0.0.1 over http; retries wait 10 minutes, so a failed attempt
// stays failed until the Retry button is pressed.
const stack = await startTestStack(t, { env: { ...ALLOWED, WEBHOOK_DISPATCH_INTERVAL_MS: '200', WEBHOOK_RETRY_DELAYS_MS: '600000,600000,600000,600000,600000,600000,600000' } });
const browser = await launchBrowser(t);
let failing = false;
const hooks = await receiver(() => (failing ? 500 : 200));
t.teardown(hooks.close);

/** The page's delivery row, once the log shows it with `status` (the page reloaded until then). */
async function rowOnceStatus(page: Page, deliveryId: string, status: string) {
  const row = page.locator(`tr[data-delivery-id="${deliveryId}"]`);
  await eventually(`${deliveryId} shows ${status}`, async () => {
    await page.reload();
    return (await row.count()) === 1 && (await row.textContent())?.includes(status) ? true : undefined;
  }, { timeoutMs: 20_000, intervalMs: 300 });
  return row;
}

t.test('endpoints: refused URL, create with the secret shown once, a test delivered, a failure retried, limit, rotate, disable/enable, events, 404 for another workspace, CSRF, delete', async (t) => {
  const { context, page, problems } = await openPage(browser, stack.baseUrl);
  await signUpInBrowser(page, uniqueEmail('webhooks'));
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.waitForURL('**/dashboard/webhooks');
  t.match(await page.locator('.endpoint-usage').textContent(), /0 of 1 endpoint used/, 'the free plan\'s limit');
  t.ok(await page.getByText('No endpoints yet.').isVisible());

  // A URL on a private address is refused with its reason; what was entered is kept.
  const url = page.getByLabel('URL', { exact: true });
  await url.fill('https://10.1.2.3/hooks');
  await page.getByLabel(/job\.cancelled/).uncheck();
  const refusedAnswer = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/dashboard/webhooks'));
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  t.equal((await refusedAnswer).status(), 400, 'refused address: 400');
  t.match(await page.getByRole('alert').textContent(), /This URL cannot receive webhooks: the address 10\.1\.2\.3, which is in a range webhooks are not sent to: private \(10\.0\.0\.0\/8\)\./);
  t.equal(await url.inputValue(), 'https://10.1.2.3/hooks', 'the URL is kept');
  t.equal(await page.getByLabel(/job\.cancelled/).isChecked(), false, 'the events as chosen are kept');
  t.equal(await page.getByLabel(/job\.completed/).isChecked(), true);

  // Created: the endpoint's page shows its secret, once.
  await url.fill(hooks.url);
  await page.getByLabel(/Description/).fill('local receiver');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.waitForURL(/\/dashboard\/webhooks\/wh_[0-9A-Z]{26}$/);
  const webhookId = /wh_[0-9A-Z]{26}/.exec(page.url())![0];
  const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
  t.match(secret, WEBHOOK_SECRET_PATTERN, 'the secret, whsec_…');
  t.ok(await page.getByText('Copy it now: it will not be shown again.').isVisible());
  t.match(await page.locator('.endpoint-facts').textContent(), new RegExp(`${hooks.url.replace(/[.]/g, '\\.')}[\\s\\S]*local receiver[\\s\\S]*Enabled[\\s\\S]*job\\.completed[\\s\\S]*job\\.failed`));
  t.strictSame(
    (await page.locator('.endpoint-facts ul.event-list li').allTextContents()).map((text) => text.trim()),
    ['job.completed', 'job.failed', 'trackedSearch.run.completed', 'trackedSearch.run.failed'],
    'the events chosen',
  );
  await page.reload();
  t.equal(await page.getByRole('textbox', { name: 'Signing secret' }).count(), 0, 'a reload shows the secret no more');
  t.notMatch(await page.content(), new RegExp(secret.slice(6, 30).replace(/[+/]/g, '\\$&')), 'nowhere on the page');

  // A test event: delivered, signed with that secret; the log shows it.
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.waitForURL(/\?sent=msg_/);
  const testId = /sent=(msg_[0-9A-Z]{26})/.exec(page.url())![1]!;
  const arrived = await eventually('the test event arrives', async () => hooks.received.find((received) => received.headers['webhook-id'] === testId), { timeoutMs: 15_000, intervalMs: 100 });
  t.match(new Webhook(secret).verify(arrived.body, arrived.headers as Record<string, string>), { type: 'webhook.test' }, 'verified with the secret shown');
  const testRow = await rowOnceStatus(page, testId, 'Delivered');
  t.match(await testRow.textContent(), new RegExp(`webhook\\.test[\\s\\S]*${testId}[\\s\\S]*Delivered\\s*1\\s*200`), 'event, webhook-id, status, attempts, last response');
  t.match(await page.getByRole('status').first().textContent(), new RegExp(`The test event \\(${testId}\\) was delivered: your endpoint answered 200\\.`));
  t.equal(await testRow.getByRole('button', { name: /Retry/ }).count(), 0, 'nothing to retry');

  // The receiver fails: the delivery waits for its next attempt; Retry sends it again now, with the same webhook-id.
  failing = true;
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.waitForURL(/\?sent=msg_/);
  const failedId = /sent=(msg_[0-9A-Z]{26})/.exec(page.url())![1]!;
  const failedRow = await rowOnceStatus(page, failedId, 'Retrying');
  t.match(await failedRow.textContent(), /Retrying\s*1\s*500/, 'the attempt and its 500');
  t.match(await page.getByRole('status').first().textContent(), /was not delivered yet: 500\. The next attempt is at/);
  // The pictures: a delivery delivered, one waiting for its next attempt with its Retry button.
  await saveScreenshot(page, 'webhook-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await saveScreenshot(page, 'webhook-375');
  await page.setViewportSize({ width: 1280, height: 900 });
  failing = false;
  await failedRow.getByRole('button', { name: `Retry ${failedId}` }).click();
  await page.waitForURL(new RegExp(`\\?retried=${failedId}$`));
  t.match(await (await rowOnceStatus(page, failedId, 'Delivered')).textContent(), /Delivered\s*2\s*200/, 'retried: delivered at the second attempt');
  t.equal(hooks.received.filter((received) => received.headers['webhook-id'] === failedId).length, 2, 'the receiver got it twice, under one webhook-id');

  // The plan's limit: a second endpoint is refused with 409, the form kept.
  await page.goto('/dashboard/webhooks');
  t.match(await page.locator(`tr[data-webhook-id="${webhookId}"]`).textContent(), /local receiver[\s\S]*Enabled/);
  t.match(await page.locator('.endpoint-usage').textContent(), /1 of 1 endpoint used/);
  await saveScreenshot(page, 'webhooks-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await saveScreenshot(page, 'webhooks-375');
  await page.setViewportSize({ width: 1280, height: 900 });
  await url.fill(`${hooks.url}/second`);
  const limitAnswer = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/dashboard/webhooks'));
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  t.equal((await limitAnswer).status(), 409, 'the plan\'s limit: 409');
  t.match(await page.getByRole('alert').textContent(), /The plan allows 1 webhook endpoint; delete one or change plans\./);
  t.equal(await url.inputValue(), `${hooks.url}/second`, 'the form kept');

  // Rotation: a new secret, once, and the old one's overlap said.
  await page.goto(`/dashboard/webhooks/${webhookId}`);
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.waitForLoadState();
  const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
  t.match(rotated, WEBHOOK_SECRET_PATTERN);
  t.not(rotated, secret, 'a new secret');
  t.match(await page.locator('.new-secret').textContent(), /The old secret stays valid for 24 hours, until/);
  await page.reload();
  t.equal(await page.getByRole('textbox', { name: 'Signing secret' }).count(), 0, 'shown once');

  // Disable, then enable.
  await page.getByRole('button', { name: 'Disable', exact: true }).click();
  await page.waitForURL(/\?done=disabled$/);
  t.match(await page.locator('[data-endpoint-status]').textContent(), /Disabled\s*disabled by you/);
  t.equal(await page.getByRole('button', { name: 'Send test event' }).isDisabled(), true, 'no test while disabled');
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await page.waitForURL(/\?done=enabled$/);
  t.match(await page.locator('[data-endpoint-status]').textContent(), /^Enabled$/);

  // Events changed; none at all is refused.
  const editing = page.locator('form[action$="/events"]');
  for (const box of await editing.getByRole('checkbox').all()) await box.uncheck();
  const noEvents = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/events'));
  await page.getByRole('button', { name: 'Save events' }).click();
  t.equal((await noEvents).status(), 400, 'no event: 400');
  t.match(await page.getByRole('alert').textContent(), /Choose at least one event\./);
  await page.locator('form[action$="/events"]').getByLabel(/trackedSearch\.run\.failed/).check();
  await page.getByRole('button', { name: 'Save events' }).click();
  await page.waitForURL(/\?done=events$/);
  t.match(await page.locator('.endpoint-facts ul.event-list').textContent(), /^\s*trackedSearch\.run\.failed\s*$/, 'the events saved');

  // Another workspace: the endpoint's page and its forms are not found.
  const stranger = await openPage(browser, stack.baseUrl);
  await signUpInBrowser(stranger.page, uniqueEmail('stranger'));
  const theirs = await stranger.page.goto(`/dashboard/webhooks/${webhookId}`);
  t.equal(theirs?.status(), 404, 'another workspace\'s endpoint: 404');
  t.ok(await stranger.page.getByRole('heading', { name: 'Page not found' }).isVisible(), 'the 404 page');
  t.equal((await stranger.page.goto(`/dashboard/webhooks/${webhookId}/delete`))?.status(), 404);
  const strangerForms = new FormClient(stack.baseUrl);
  await strangerForms.signUp(uniqueEmail('stranger-forms'));
  const strangerToken = await strangerForms.sessionCsrf();
  for (const action of ['test', 'secret', 'delete', `deliveries/${testId}/retry`]) {
    t.equal((await strangerForms.post(`/dashboard/webhooks/${webhookId}/${action}`, { _csrf: strangerToken })).status, 404, `another workspace's ${action}: 404`);
  }
  t.notMatch((await strangerForms.get('/dashboard/webhooks')).text, new RegExp(webhookId), 'not listed for it');

  // The owner's session without the form's token: refused, nothing changed.
  const owner = new FormClient(stack.baseUrl);
  for (const cookie of await context.cookies()) owner.cookies.set(cookie.name, cookie.value);
  const base = `/dashboard/webhooks/${webhookId}`;
  const forms: Array<[string, Record<string, string>]> = [
    ['/dashboard/webhooks', { url: hooks.url, events: 'job.completed' }],
    [`${base}/status`, { status: 'disabled' }],
    [`${base}/events`, { events: 'job.failed' }],
    [`${base}/secret`, {}],
    [`${base}/test`, {}],
    [`${base}/deliveries/${testId}/retry`, {}],
    [`${base}/delete`, {}],
  ];
  const receivedBefore = hooks.received.length;
  for (const [path, fields] of forms) {
    const answer = await owner.post(path, fields);
    t.equal(answer.status, 403, `${path} without _csrf: 403`);
    t.match(answer.text, /This form has expired/);
  }
  const unchanged = (await owner.get(base)).text;
  t.match(unchanged, /badge ok">Enabled/, 'still there, still enabled');
  t.match(unchanged, /<dt>Events<\/dt><dd><ul class="event-list"><li><code>trackedSearch\.run\.failed<\/code><\/li><\/ul>/, 'its events unchanged');
  t.equal(hooks.received.length, receivedBefore, 'nothing sent');

  // A log page link that is not valid (not a cursor; a cursor's characters the jobs service refuses): the newest deliveries, with a word why.
  for (const cursor of ['not*valid', 'AAAA']) {
    const answer = await owner.get(`/dashboard/webhooks/${webhookId}?cursor=${encodeURIComponent(cursor)}`);
    t.equal(answer.status, 200, `cursor ${cursor}: the page`);
    t.match(answer.text, /That page link is not valid; these are the newest deliveries\./);
    t.match(answer.text, `data-delivery-id="${testId}"`, 'and the newest deliveries');
  }

  // Delete, through its confirmation.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.waitForURL(new RegExp(`/dashboard/webhooks/${webhookId}/delete\\??$`));
  t.ok(await page.getByRole('heading', { name: 'Delete this endpoint?' }).isVisible(), 'a confirmation first');
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  await page.waitForURL(/\/dashboard\/webhooks\?deleted=/);
  t.match(await page.getByRole('status').first().textContent(), new RegExp(`The endpoint ${webhookId} is deleted`));
  t.match(await page.locator('.endpoint-usage').textContent(), /0 of 1 endpoint used/);
  t.equal((await page.goto(`/dashboard/webhooks/${webhookId}`))?.status(), 404, 'gone');
  t.strictSame(problems, [], 'no console errors (no CSP violation)');
  t.strictSame(stranger.problems, []);
});
