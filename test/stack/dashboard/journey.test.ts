import t from 'tap';
import { launchBrowser, openPage, saveScreenshot } from '../../helpers/browser.js';
import { createKeyInBrowser, signInInBrowser, signUpInBrowser, uniqueEmail } from '../../helpers/dashboard.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

const stack = await startTestStack(t);
const browser = await launchBrowser(t);

t.test('a new user signs up, makes a key, uses it, sees it used, revokes it and signs out', async (t) => {
  const { context, page, problems } = await openPage(browser, stack.baseUrl);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });

  await page.goto('/dashboard');
  t.match(new URL(page.url()).pathname, '/auth/sign-in', 'signed out, the dashboard leads to the sign-in page');
  t.equal(new URL(page.url()).searchParams.get('next'), '/dashboard');
  await saveScreenshot(page, 'sign-in');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await saveScreenshot(page, 'sign-up');

  const email = uniqueEmail('journey');
  await signUpInBrowser(page, email);
  t.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Overview', 'signed up, the dashboard opens');
  t.ok(await page.getByText('Plan: Free').isVisible(), 'on the free plan');
  t.ok(await page.getByText(email).isVisible(), 'the header names the user');

  // The key, shown once.
  const key = await createKeyInBrowser(page, 'journey backend');
  t.match(key, /^sk_[0-9A-Za-z]{40}$/, 'the new key is shown');
  t.ok(await page.getByText('it will not be shown again').isVisible(), 'with the note that it will not be shown again');
  const copy = page.getByRole('button', { name: 'Copy' });
  t.ok(await copy.isVisible(), 'and a copy button');
  await copy.click();
  await page.getByText('Copied to the clipboard.').waitFor();
  t.equal(await page.evaluate('navigator.clipboard.readText()'), key, 'the copy button copies the key');
  await saveScreenshot(page, 'keys-new-key');

  await page.reload();
  t.notOk(await page.getByRole('textbox', { name: 'New API key' }).count(), 'reloaded, the key is not shown again');
  t.notOk((await page.content()).includes(key), 'nowhere in the page');
  const row = page.locator('tr', { hasText: 'journey backend' });
  t.match(await row.textContent(), `${key.slice(0, 9)}…${key.slice(-4)}`, 'the list shows its prefix and last four');
  t.match(await row.textContent(), /Active/);

  // The key works on the API, through the stack.
  const search = await request(stack.baseUrl, '/v1/scrape?keyword=nintendo+switch&count=5', { apiKey: key });
  t.equal(search.status, 200, 'the key works on the API');

  // The request shows on the dashboard (the quota) and in the history.
  await eventually('the overview counts the charged request', async () => {
    await page.goto('/dashboard');
    const charged = await page.getByTestId('used').textContent();
    // The charge (the quota ledger) and the history entry (the chart) arrive separately, each within moments.
    return charged === '1' && (await page.locator('svg.chart rect.bar-charged').count()) === 1 ? true : undefined;
  }, { timeoutMs: 10_000, intervalMs: 250 });
  t.pass('the overview counts the request, and the chart has a bar for today');
  await saveScreenshot(page, 'overview');

  await page.getByRole('link', { name: 'Requests', exact: true }).click();
  const historyRow = page.locator('tbody tr', { hasText: search.body.requestId });
  await historyRow.waitFor();
  t.match(await historyRow.textContent(), /GET \/v1\/scrape/, 'the history page lists the request');
  t.match(await historyRow.textContent(), /\[redacted\]/, 'its search text redacted');
  t.notOk((await page.content()).includes('nintendo'), 'the search text is nowhere on the page');
  await saveScreenshot(page, 'requests');
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel('From', { exact: true }).fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  await page.getByRole('button', { name: 'Filter' }).click();
  t.ok(await page.locator('tbody tr', { hasText: search.body.requestId }).count(), 'today\'s filter keeps it');
  await page.getByLabel('From', { exact: true }).fill('2020-01-01');
  await page.getByLabel('To', { exact: true }).fill('2020-01-31');
  await page.getByRole('button', { name: 'Filter' }).click();
  t.ok(await page.getByText('No requests in this range.').isVisible(), 'a range before it has nothing');

  // Revoke, with a confirmation, and the API refuses the key within 5 seconds.
  await page.goto('/dashboard/keys');
  await page.locator('tr', { hasText: 'journey backend' }).getByRole('button', { name: /Revoke/ }).click();
  t.match(await page.getByRole('heading', { level: 1 }).textContent(), /Revoke the key journey backend\?/, 'Revoke asks to confirm');
  await saveScreenshot(page, 'revoke-confirm');
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await page.waitForURL('**/dashboard/keys?revoked=*');
  const revokedAt = Date.now();
  t.match(await page.locator('tr', { hasText: 'journey backend' }).textContent(), /Revoked/, 'the list says revoked');
  await eventually('the revoked key is refused', async () => ((await request(stack.baseUrl, '/usage', { apiKey: key })).status === 401 ? true : undefined), { timeoutMs: 5000, intervalMs: 100 });
  t.ok(Date.now() - revokedAt <= 5000, `the API refuses it within 5 s (${Date.now() - revokedAt} ms)`);

  // Sign out: the session ends on the server, and the dashboard asks to sign in again.
  const [sessionCookie] = (await context.cookies()).filter((cookie) => cookie.name === 'comps_session');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/auth/sign-in?signed-out=1');
  t.ok(await page.getByText('You have signed out.').isVisible());
  await page.goto('/dashboard/requests');
  t.match(new URL(page.url()).pathname, '/auth/sign-in', 'signed out, the dashboard asks to sign in again');
  const replayed = await fetch(`${stack.baseUrl}/dashboard`, { headers: { cookie: `comps_session=${sessionCookie!.value}` }, redirect: 'manual' });
  t.equal(replayed.status, 303, 'the old session id opens nothing: it ended on the server');

  // Signing in again leads back to the page that asked.
  await signInInBrowser(page, email);
  await page.waitForURL('**/dashboard/requests');
  t.pass('signed in again, back on the requests page');
  t.strictSame(problems, [], 'no console errors (no Content-Security-Policy violation) on any page');
  await context.close();
});
