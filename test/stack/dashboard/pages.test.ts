import t, { type Test } from 'tap';
import { launchBrowser, openPage, saveScreenshot } from '../../helpers/browser.js';
import { requestIdAt } from '@comps/shared/ids';
import { accountsClient } from '../../helpers/accounts-client.js';
import { FormClient, signUpInBrowser, uniqueEmail } from '../../helpers/dashboard.js';
import { request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

const stack = await startTestStack(t);
const user = new FormClient(stack.baseUrl);
if ((await user.signUp(uniqueEmail('pages'))).status !== 303) throw new Error('could not sign up');
const { apiKeyId } = await user.createKey('headers');

function checkHeaders(t: Test, label: string, headers: Headers) {
  const csp = headers.get('content-security-policy') ?? '';
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? /default-src ([^;]*)/.exec(csp)?.[1] ?? '';
  t.notMatch(scriptSrc, /unsafe-inline|unsafe-eval|\*|data:|https?:/, `${label}: scripts from the stack only, none inline`);
  t.match(csp, /frame-ancestors 'none'/, `${label}: frame-ancestors 'none'`);
  t.equal(headers.get('x-content-type-options'), 'nosniff', `${label}: nosniff`);
  t.equal(headers.get('referrer-policy'), 'same-origin', `${label}: Referrer-Policy same-origin`);
}

t.test('every page carries the security headers, error pages too', async (t) => {
  const signedOut = new FormClient(stack.baseUrl);
  const pages: Array<[string, FormClient, string, number]> = [
    ['sign-in', signedOut, '/auth/sign-in', 200],
    ['sign-up', signedOut, '/auth/sign-up', 200],
    ['docs', signedOut, '/docs', 200],
    ['a bad set-password link', signedOut, '/auth/set-password?token=nope', 400],
    ['overview', user, '/dashboard', 200],
    ['keys', user, '/dashboard/keys', 200],
    ['revoke confirmation', user, `/dashboard/keys/${apiKeyId}/revoke`, 200],
    ['requests', user, '/dashboard/requests', 200],
    ['requests with a bad date', user, '/dashboard/requests?from=2026-13-45', 400],
    ['jobs', user, '/dashboard/jobs', 200],
    ['an unknown dashboard page', user, '/dashboard/nothing/here', 404],
    ['an unknown auth page', signedOut, '/auth/nothing', 404],
    ['another workspace\'s key', user, '/dashboard/keys/key_01AAAAAAAAAAAAAAAAAAAAAAAA/revoke', 404],
    ['a job that is not there', user, '/dashboard/jobs/00000000-0000-4000-8000-000000000000/download.csv', 404],
  ];
  for (const [label, client, path, status] of pages) {
    const answer = await client.get(path);
    t.equal(answer.status, status, `${label}: ${status}`);
    t.match(answer.headers.get('content-type'), /^text\/html; charset=utf-8/, `${label}: an HTML page`);
    t.match(answer.text, /^<!doctype html>/, `${label}: a whole document, never JSON`);
    t.notMatch(answer.text, /\bat [\w.]+ \(|node_modules|Error: /, `${label}: no stack trace`);
    checkHeaders(t, label, answer.headers);
  }
});

t.test('errors are pages: 404, 405, a body that is not a form', async (t) => {
  const missing = await user.get('/dashboard/nothing/here');
  t.match(missing.text, /Page not found/);
  t.match(missing.text, /req_[0-9A-Z]{26}/, 'with the request id to quote');
  const wrongMethod = await user.send('DELETE', '/dashboard/keys', undefined);
  t.equal(wrongMethod.status, 405);
  t.match(wrongMethod.headers.get('allow'), /GET/);
  t.match(wrongMethod.text, /<!doctype html>/);
  const json = await user.send('POST', '/dashboard/keys', JSON.stringify({ name: 'x' }), { 'content-type': 'application/json' });
  t.equal(json.status, 415);
  t.match(json.text, /<!doctype html>/, 'a JSON body gets a page, not JSON');
  const signedOutMissing = await new FormClient(stack.baseUrl).get('/dashboard/nothing/here');
  t.equal(signedOutMissing.status, 303, 'signed out, every dashboard path leads to sign-in first');
});

t.test('the session cookie: HttpOnly, SameSite=Lax, Path=/, and Secure when the request came over HTTPS', async (t) => {
  const client = new FormClient(stack.baseUrl);
  const form = await client.get('/auth/sign-in');
  const email = uniqueEmail('cookie');
  await new FormClient(stack.baseUrl).signUp(email);
  const signedIn = await client.post('/auth/sign-in', { _csrf: FormClient.csrfOf(form), email, password: 'correct horse battery staple' });
  const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('comps_session='))!;
  t.ok(cookie, 'sign-in sets the session cookie');
  t.match(cookie, /;\s*httponly/i, 'HttpOnly');
  t.match(cookie, /;\s*samesite=lax/i, 'SameSite=Lax');
  t.match(cookie, /;\s*path=\/(;|$)/i, 'Path=/');
  t.notMatch(cookie, /;\s*secure/i, 'not Secure over plain HTTP (Caddy took the request without TLS)');
  t.match(cookie, /^comps_session=[A-Za-z0-9_-]{43};/, '256 random bits');

  // Caddy, when it terminates TLS, tells accounts so with X-Forwarded-Proto; the cookie is then Secure.
  const direct = new FormClient(`http://127.0.0.1:${stack.ports.accounts}`);
  const https = { 'x-forwarded-proto': 'https' };
  const directForm = await direct.get('/auth/sign-in', https);
  const overHttps = await direct.post('/auth/sign-in', { _csrf: FormClient.csrfOf(directForm), email, password: 'correct horse battery staple' }, https);
  t.equal(overHttps.status, 303);
  const secureCookie = overHttps.headers.getSetCookie().find((line) => line.startsWith('comps_session='))!;
  t.match(secureCookie, /;\s*secure/i, 'Secure over HTTPS');
  t.match(secureCookie, /;\s*httponly/i);

  const signedOut = await client.post('/auth/sign-out', { _csrf: await client.sessionCsrf() });
  t.match(signedOut.headers.getSetCookie().find((line) => line.startsWith('comps_session=')), /expires=Thu, 01 Jan 1970/i, 'sign-out clears the cookie too');
});

t.test('the request history comes in pages of 50, newest first, each entry once', async (t) => {
  const client = new FormClient(stack.baseUrl);
  await client.signUp(uniqueEmail('history'));
  const { key } = await client.createKey('history');
  const { workspaceId } = (await request(stack.baseUrl, '/usage', { apiKey: key })).body as { workspaceId: string };
  // 60 past requests, one a minute over the last hour, as the api reports them.
  const now = Date.now();
  const entries = Array.from({ length: 60 }, (_, index) => ({
    requestId: requestIdAt(new Date(now - (60 - index) * 60_000)), workspaceId, apiKeyId: null, apiKeyPrefix: 'sk_abcdef', method: 'GET', path: '/v1/scrape',
    status: 200, code: null, charged: 1 as const, durationMs: 100 + index, marketSite: 'market.com' as const, hasKeyword: true, resultCount: index, jobId: null,
  }));
  await accountsClient(stack).history.record.mutate({ entries });
  const ids = (text: string) => [...text.matchAll(/title="Request id">(req_[0-9A-Z]{26})</g)].map((match) => match[1]!);
  const first = await client.get('/dashboard/requests');
  const firstIds = ids(first.text);
  t.equal(firstIds.length, 50, 'the first page has 50');
  t.ok(firstIds.includes(entries.at(-1)!.requestId) && !firstIds.includes(entries[0]!.requestId), 'the newest first');
  const older = /href="(\/dashboard\/requests\?before=req_[0-9A-Z]{26})" rel="next"/.exec(first.text)?.[1];
  t.ok(older, 'with a link to older requests');
  const second = await client.get(older!.replace(/&amp;/g, '&'));
  const secondIds = ids(second.text);
  t.ok(secondIds.length >= 10, 'the next page has the rest (and the requests this test made)');
  t.strictSame(secondIds.filter((id) => firstIds.includes(id)), [], 'no entry twice');
  t.match(second.text, /← Newest/, 'and a way back to the newest');
  t.notMatch(second.text, /rel="next"/, 'the last page has no older link');
  t.equal((await client.get('/dashboard/requests?before=nonsense')).status, 200, 'a broken page link shows the newest page');
});

t.test('in the browser: the cookie\'s flags, and screenshots of the pages not shown elsewhere', async (t) => {
  const browser = await launchBrowser(t);
  const { context, page, problems } = await openPage(browser, stack.baseUrl);
  await signUpInBrowser(page, uniqueEmail('browser'));
  const [session] = (await context.cookies()).filter((cookie) => cookie.name === 'comps_session');
  t.match(session, { httpOnly: true, sameSite: 'Lax', path: '/', secure: false });
  t.equal(await page.evaluate('document.cookie.includes("comps_session")'), false, 'scripts cannot read it');
  const missing = await page.goto('/dashboard/nothing/here');
  t.equal(missing?.status(), 404);
  t.ok(await page.getByRole('heading', { name: 'Page not found' }).isVisible());
  await saveScreenshot(page, 'not-found');
  t.strictSame(problems, []);
});
