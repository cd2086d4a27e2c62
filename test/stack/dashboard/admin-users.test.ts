import t from 'tap';
import { runAdmin } from '../../helpers/admin-cli.js';
import { launchBrowser, openPage, saveScreenshot } from '../../helpers/browser.js';
import { FormClient, GOOD_PASSWORD, uniqueEmail } from '../../helpers/dashboard.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

// Sign-up closed, as an operator who creates the accounts; and Redis out of reach for accounts only
// (a port nothing listens on), to see that sign-in then refuses, with a page, rather than skip its throttle.
const stack = await startTestStack(t, { serviceEnv: { accounts: { SIGNUP: 'closed', REDIS_URL: 'redis://127.0.0.1:9' } } });
const admin = (args: string[]) => runAdmin(stack, args, { PUBLIC_URL: stack.baseUrl });
const browser = await launchBrowser(t);

t.test('SIGNUP=closed: a clear page, and nothing is created', async (t) => {
  const client = new FormClient(stack.baseUrl);
  const page = await client.get('/auth/sign-up');
  t.equal(page.status, 403);
  t.match(page.text, /Sign-up is closed/);
  t.match(page.text, /created by its administrator/);
  const signIn = await client.get('/auth/sign-in');
  t.notMatch(signIn.text, /Create an account/, 'the sign-in page offers no sign-up');
  const email = uniqueEmail('closed');
  const posted = await client.post('/auth/sign-up', { _csrf: FormClient.csrfOf(signIn), email, password: GOOD_PASSWORD });
  t.equal(posted.status, 403, 'a posted sign-up is refused too');
  const created = await admin(['user', 'password-link', '--email', email]);
  t.match(created.stderr, /No user with the e-mail address/, 'no user was made');
});

t.test('user create prints a set-password link that works once', async (t) => {
  const workspace = JSON.parse((await admin(['workspace', 'create', '--name', 'Invited shop', '--plan', 'starter'])).stdout) as { workspaceId: string; apiKey: string };
  const email = uniqueEmail('invited');
  const created = await admin(['user', 'create', '--email', email.toUpperCase(), '--workspace', workspace.workspaceId]);
  t.equal(created.code, 0, created.stderr);
  const link = JSON.parse(created.stdout) as { userId: string; email: string; workspaceId: string; setPasswordUrl: string; expiresAt: string };
  t.strictSame(Object.keys(link).sort(), ['email', 'expiresAt', 'setPasswordUrl', 'userId', 'workspaceId']);
  t.equal(link.email, email, 'the address is kept lower-cased');
  t.equal(link.workspaceId, workspace.workspaceId);
  t.match(link.setPasswordUrl, new RegExp(`^${stack.baseUrl}/auth/set-password\\?token=[A-Za-z0-9_-]{43}$`), 'a link on PUBLIC_URL');
  t.ok(Math.abs(Date.parse(link.expiresAt) - Date.now() - 72 * 3_600_000) < 60_000, 'valid for 72 hours');

  const { page, problems } = await openPage(browser, stack.baseUrl);
  await page.goto(link.setPasswordUrl);
  t.ok(await page.getByRole('heading', { name: 'Choose your password' }).isVisible());
  t.ok(await page.getByText(email).isVisible(), 'for the invited address');
  await saveScreenshot(page, 'set-password');
  await page.getByLabel('New password', { exact: true }).fill('too short');
  await page.locator('form').evaluate((form) => form.setAttribute('novalidate', ''));
  await page.getByRole('button', { name: 'Set password' }).click();
  t.match(await page.locator('.notice.error').textContent(), /at least 12 characters/, 'a weak password is refused with a message');
  await page.getByLabel('New password', { exact: true }).fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.waitForURL('**/dashboard');
  t.ok(await page.getByText('Plan: Starter').isVisible(), 'signed in, in the operator\'s workspace');
  await page.goto('/dashboard/keys');
  t.match(await page.locator('tbody').textContent(), /default/, 'with the workspace\'s keys');
  t.strictSame(problems, []);

  const again = await new FormClient(stack.baseUrl).get(new URL(link.setPasswordUrl).pathname + new URL(link.setPasswordUrl).search);
  t.equal(again.status, 400, 'the link works once');
  t.match(again.text, /This link does not work/);

  const duplicate = await admin(['user', 'create', '--email', email, '--workspace', workspace.workspaceId]);
  t.equal(duplicate.code, 1);
  t.match(duplicate.stderr, /already exists/);
  const unknownWorkspace = await admin(['user', 'create', '--email', uniqueEmail(), '--workspace', 'ws_01NOSUCHWORKSPACE000000000']);
  t.equal(unknownWorkspace.code, 1);
  t.match(unknownWorkspace.stderr, /Unknown workspace/);
  const badEmail = await admin(['user', 'create', '--email', 'nobody', '--workspace', workspace.workspaceId]);
  t.equal(badEmail.code, 1);
  t.match(badEmail.stderr, /Not a valid e-mail address/);

  // A forgotten password: a new link; using it ends the sessions the old password opened.
  const [session] = (await page.context().cookies()).filter((cookie) => cookie.name === 'comps_session');
  const reset = JSON.parse((await admin(['user', 'password-link', '--email', email, '--link-hours', '1'])).stdout) as { setPasswordUrl: string; expiresAt: string };
  t.ok(Math.abs(Date.parse(reset.expiresAt) - Date.now() - 3_600_000) < 60_000, '--link-hours sets the lifetime');
  const client = new FormClient(stack.baseUrl);
  const form = await client.get(new URL(reset.setPasswordUrl).pathname + new URL(reset.setPasswordUrl).search);
  const token = new URL(reset.setPasswordUrl).searchParams.get('token')!;
  t.equal((await client.post('/auth/set-password', { _csrf: FormClient.csrfOf(form), token, password: 'another fine passphrase' })).status, 303);
  const old = new FormClient(stack.baseUrl);
  old.cookies.set('comps_session', session!.value);
  t.equal((await old.get('/dashboard')).status, 303, 'the session of the old password has ended');

  const local = await runAdmin(stack, ['user', 'password-link', '--email', email], { PORT: '9191' });
  t.match((JSON.parse(local.stdout) as { setPasswordUrl: string }).setPasswordUrl, /^http:\/\/localhost:9191\/auth\/set-password\?token=/, 'without PUBLIC_URL, links point at what npm start serves on PORT');
});

t.test('user commands check their arguments', async (t) => {
  for (const args of [['user'], ['user', 'create'], ['user', 'create', '--email', 'a@b.co'], ['user', 'create', '--workspace', 'ws_x'], ['user', 'password-link'], ['user', 'create', '--email', 'a@b.co', '--workspace', 'ws_x', '--link-hours', '0']]) {
    const result = await admin(args);
    t.equal(result.code, 2, `${args.join(' ')} exits 2`);
    t.match(result.stderr, /usage: npm run --silent admin/);
  }
});

t.test('with Redis out of reach, sign-in refuses (with a page) rather than go unthrottled', async (t) => {
  const workspace = JSON.parse((await admin(['workspace', 'create', '--name', 'No redis'])).stdout) as { workspaceId: string; apiKey: string };
  const client = new FormClient(stack.baseUrl);
  const signIn = await client.signIn(uniqueEmail('someone'), GOOD_PASSWORD);
  t.equal(signIn.status, 503);
  t.match(signIn.headers.get('content-type'), /^text\/html/);
  t.match(signIn.text, /Temporarily unavailable/);
  t.ok(Number(signIn.headers.get('retry-after')) >= 1);
  // Accounts could not announce the new key on Redis: the api learns of it at its next catch-up, within seconds.
  const answered = await eventually('the API answers the new key', async () => {
    const response = await request(stack.baseUrl, '/usage', { apiKey: workspace.apiKey });
    return response.status === 200 ? response : undefined;
  }, { timeoutMs: 5000, intervalMs: 250 });
  t.equal(answered.status, 200, 'the API, which reaches accounts internally, is unaffected');
});
