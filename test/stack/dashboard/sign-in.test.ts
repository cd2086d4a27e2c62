import t from 'tap';
import { launchBrowser, openPage } from '../../helpers/browser.js';
import { FormClient, GOOD_PASSWORD, signInInBrowser, uniqueEmail } from '../../helpers/dashboard.js';
import { startTestStack } from '../../helpers/test-stack.js';

// Low limits so that the throttles show in a few attempts; the address limit is tested last (it holds this address).
const stack = await startTestStack(t, {
  serviceEnv: { accounts: { SIGN_IN_FAILURES_PER_ACCOUNT: '4', SIGN_IN_FAILURES_PER_ADDRESS: '16', SIGN_UPS_PER_ADDRESS_PER_HOUR: '8' } },
});
const browser = await launchBrowser(t);
const { page, problems } = await openPage(browser, stack.baseUrl);
const errorText = async () => (await page.locator('.notice.error').textContent())?.trim();

const registered = uniqueEmail('registered');
{
  const client = new FormClient(stack.baseUrl);
  if ((await client.signUp(registered)).status !== 303) throw new Error('could not sign up');
}

t.test('sign-up says clearly what is wrong', async (t) => {
  const attempt = async (email: string, password: string) => {
    await page.goto('/auth/sign-up');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    // The browser's own checks (minlength) would stop the form first; the server's message is what is tested.
    await page.locator('form').evaluate((form) => form.setAttribute('novalidate', ''));
    const [answer] = await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.getByRole('button', { name: 'Create account' }).click()]);
    await page.waitForLoadState();
    return answer.status();
  };
  t.equal(await attempt(uniqueEmail('weak'), 'short pass'), 400, 'a weak password: 400');
  t.equal(await errorText(), 'Choose a password of at least 12 characters.', 'with a clear message');
  t.equal(await page.getByLabel('E-mail', { exact: true }).inputValue() !== '', true, 'the e-mail is kept in the form');
  t.equal(await attempt(uniqueEmail('weak'), 'aaaaaaaaaaaaaaaa'), 400);
  t.match(await errorText(), /more than three different characters/, 'a password of one repeated character');
  t.equal(await attempt('not-an-address', GOOD_PASSWORD), 400);
  t.match(await errorText(), /valid e-mail address/, 'an e-mail address that is not one');
  t.equal(await attempt(registered.toUpperCase(), GOOD_PASSWORD), 409, 'a taken e-mail (in any case): 409');
  t.equal(await errorText(), 'An account with this e-mail address already exists. Sign in instead.');
  t.strictSame(problems, []);
});

t.test('a wrong password and an unknown e-mail get the same answer', async (t) => {
  const signIn = async (email: string, password: string) => {
    await page.goto('/auth/sign-in');
    const [answer] = await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), signInInBrowser(page, email, password)]);
    await page.waitForLoadState();
    return { status: answer.status(), message: await errorText() };
  };
  const wrong = await signIn(registered, 'not the right password');
  const unknown = await signIn(uniqueEmail('nobody'), 'not the right password');
  t.equal(wrong.message, 'The e-mail address or the password is not right.', 'a clear message');
  t.strictSame(unknown, wrong, 'identical for an unknown e-mail and a wrong password (status and message)');
  const plain = new FormClient(stack.baseUrl);
  const normalize = (text: string) => text.replace(/name="_csrf" value="[^"]+"/, '').replace(/value="[^"]*@example\.com"/, '');
  const wrongPage = await plain.signIn(registered, 'not the right password');
  const unknownPage = await plain.signIn(uniqueEmail('nobody'), 'not the right password');
  t.equal(normalize(unknownPage.text), normalize(wrongPage.text), 'the whole page is the same, but for the token and the address typed');
});

t.test('signing in leads back to the page that asked, and only to a page of ours', async (t) => {
  const client = new FormClient(stack.baseUrl);
  const asked = await client.get('/dashboard/requests?from=2026-11-01');
  t.equal(asked.status, 303);
  t.equal(asked.location, `/auth/sign-in?next=${encodeURIComponent('/dashboard/requests?from=2026-11-01')}`, 'signed out: to the sign-in page, with the way back');
  const cases: Array<[string, string]> = [
    ['/dashboard/requests?from=2026-11-01', '/dashboard/requests?from=2026-11-01'],
    ['/docs', '/docs'],
    ['//evil.example/dashboard', '/dashboard'],
    ['https://evil.example/dashboard', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['/dashboard/..//evil.example', '/dashboard'],
    ['/%2F%2Fevil.example', '/dashboard'],
    ['/\tevil.example', '/dashboard'],
    ['javascript:alert(1)', '/dashboard'],
    ['/auth/sign-out', '/dashboard'],
  ];
  for (const [next, expected] of cases) {
    const session = new FormClient(stack.baseUrl);
    const answer = await session.signIn(registered, GOOD_PASSWORD, next);
    t.equal(answer.status, 303, `next=${JSON.stringify(next)} signs in`);
    t.equal(answer.location, expected, `next=${JSON.stringify(next)} leads to ${expected}`);
  }
});

t.test('a new session id at every sign-in (a planted one is never used)', async (t) => {
  const client = new FormClient(stack.baseUrl);
  const planted = 'A'.repeat(43);
  client.cookies.set('comps_session', planted);
  await client.signIn(registered);
  const first = client.cookies.get('comps_session');
  t.not(first, planted, 'the planted id is replaced');
  t.match(first, /^[A-Za-z0-9_-]{43}$/);
  // Signing in again from a signed-in browser (a sign-in form left open in another tab).
  client.cookies.delete('comps_session');
  const token = FormClient.csrfOf(await client.get('/auth/sign-in'));
  client.cookies.set('comps_session', first!);
  t.equal((await client.post('/auth/sign-in', { _csrf: token, email: registered, password: GOOD_PASSWORD })).status, 303);
  t.not(client.cookies.get('comps_session'), first, 'signing in again makes another id');
  const stale = new FormClient(stack.baseUrl);
  stale.cookies.set('comps_session', first!);
  t.equal((await stale.get('/dashboard')).status, 303, 'and the previous one ends');
});

t.test('sign-in is throttled per account, then per address', async (t) => {
  const target = uniqueEmail('target');
  const owner = new FormClient(stack.baseUrl);
  await owner.signUp(target);
  const guesser = new FormClient(stack.baseUrl);
  for (let attempt = 1; attempt <= 4; attempt += 1) t.equal((await guesser.signIn(target, `guess number ${attempt}`)).status, 400, `guess ${attempt}: wrong`);
  const blocked = await guesser.signIn(target, GOOD_PASSWORD);
  t.equal(blocked.status, 429, 'past the account\'s limit, even the right password is refused');
  t.match(blocked.text, /Too many attempts to sign in\. Try again in \d+ minutes?\./);
  t.ok(Number(blocked.headers.get('retry-after')) >= 1, 'with Retry-After');
  const unknownBlocked = uniqueEmail('unknown');
  for (let attempt = 1; attempt <= 4; attempt += 1) await guesser.signIn(unknownBlocked, `guess number ${attempt}`);
  t.equal((await guesser.signIn(unknownBlocked, 'anything at all')).status, 429, 'an unknown address is throttled the same way (nothing tells which exist)');
  t.equal((await new FormClient(stack.baseUrl).signIn(registered)).status, 303, 'other accounts still sign in');

  // 14 attempts counted so far from this address (4 in the test of the messages; a refused attempt counts
  // too, a successful one is given back); the address limit is 16.
  for (let attempt = 1; attempt <= 4; attempt += 1) await guesser.signIn(uniqueEmail('spray'), 'spraying one password');
  const sprayed = await new FormClient(stack.baseUrl).signIn(registered);
  t.equal(sprayed.status, 429, 'past the address\'s limit, every account is refused from it');
});
