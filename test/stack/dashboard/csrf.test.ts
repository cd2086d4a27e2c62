import t, { type Test } from 'tap';
import { FormClient, uniqueEmail } from '../../helpers/dashboard.js';
import { request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

const stack = await startTestStack(t);
const alice = new FormClient(stack.baseUrl);
const bob = new FormClient(stack.baseUrl);
for (const [client, label] of [[alice, 'alice'], [bob, 'bob']] as const) {
  if ((await client.signUp(uniqueEmail(label))).status !== 303) throw new Error(`${label} could not sign up`);
}
const alicesKey = await alice.createKey('alice-backend');
const works = async (key: string) => (await request(stack.baseUrl, '/usage', { apiKey: key })).status === 200;
if (!(await works(alicesKey.key))) throw new Error('alice\'s new key does not work');

const refused = (t: Test, answer: { status: number; text: string; headers: Headers }, what: string) => {
  t.equal(answer.status, 403, `${what}: 403`);
  t.match(answer.headers.get('content-type'), /^text\/html/, `${what}: a page, not JSON`);
  t.match(answer.text, /This form has expired/, `${what}: the page says why`);
};

t.test('a form posted without its CSRF token changes nothing', async (t) => {
  const before = await alice.listedKeys();
  refused(t, await alice.post('/dashboard/keys', { name: 'forged' }), 'create key without a token');
  refused(t, await alice.post('/dashboard/keys', { _csrf: '', name: 'forged' }), 'create key with an empty token');
  refused(t, await alice.post(`/dashboard/keys/${alicesKey.apiKeyId}/revoke`, {}), 'revoke without a token');
  refused(t, await alice.post('/auth/sign-out', {}), 'sign-out without a token');
  t.strictSame(await alice.listedKeys(), before, 'no key was created or revoked');
  t.ok(await works(alicesKey.key), 'the key still works');
  t.equal((await alice.get('/dashboard')).status, 200, 'and alice is still signed in');
});

t.test('a form posted with another session\'s CSRF token changes nothing', async (t) => {
  const bobsToken = await bob.sessionCsrf();
  const before = await alice.listedKeys();
  refused(t, await alice.post('/dashboard/keys', { _csrf: bobsToken, name: 'forged' }), 'create key with bob\'s token');
  refused(t, await alice.post(`/dashboard/keys/${alicesKey.apiKeyId}/revoke`, { _csrf: bobsToken }), 'revoke with bob\'s token');
  refused(t, await alice.post('/auth/sign-out', { _csrf: bobsToken }), 'sign-out with bob\'s token');
  // A signed-out form's token (of the pre-session cookie) is no signed-in form's token either.
  const signInToken = FormClient.csrfOf(await new FormClient(stack.baseUrl).get('/auth/sign-in'));
  refused(t, await alice.post('/dashboard/keys', { _csrf: signInToken, name: 'forged' }), 'create key with a sign-in form\'s token');
  t.strictSame(await alice.listedKeys(), before, 'nothing changed');
  t.ok(await works(alicesKey.key));
});

t.test('the signed-out forms need their token too', async (t) => {
  const stranger = new FormClient(stack.baseUrl);
  await stranger.get('/auth/sign-in');
  refused(t, await stranger.post('/auth/sign-in', { email: 'x@example.com', password: 'whatever-whatever' }), 'sign-in without a token');
  const email = uniqueEmail('forged-sign-up');
  refused(t, await stranger.post('/auth/sign-up', { email, password: 'a long enough password' }), 'sign-up without a token');
  const other = new FormClient(stack.baseUrl);
  const othersToken = FormClient.csrfOf(await other.get('/auth/sign-up'));
  refused(t, await stranger.post('/auth/sign-up', { _csrf: othersToken, email, password: 'a long enough password' }), 'sign-up with another browser\'s token');
  t.equal((await stranger.signIn(email, 'a long enough password')).status, 400, 'no account was made');
});

t.test('another user\'s revoke form replayed with the second user\'s session: 404, and the key still works', async (t) => {
  const bobsToken = await bob.sessionCsrf();
  const replay = await bob.post(`/dashboard/keys/${alicesKey.apiKeyId}/revoke`, { _csrf: bobsToken });
  t.equal(replay.status, 404, 'not found, as a key that does not exist');
  t.match(replay.text, /Page not found/);
  t.equal((await bob.get(`/dashboard/keys/${alicesKey.apiKeyId}/revoke`)).status, 404, 'nor can bob see its confirmation page');
  await new Promise((resolve) => setTimeout(resolve, 2500));
  t.ok(await works(alicesKey.key), 'alice\'s key still works (past the api\'s key cache)');
  t.strictSame((await alice.listedKeys()).find((key) => key.apiKeyId === alicesKey.apiKeyId), { apiKeyId: alicesKey.apiKeyId, active: true });
  // Whatever else the form carries, the session decides the workspace.
  const stuffed = await bob.post(`/dashboard/keys/${alicesKey.apiKeyId}/revoke`, { _csrf: bobsToken, workspaceId: 'anything', keyOrId: alicesKey.key });
  t.equal(stuffed.status, 404, 'extra fields change nothing');
  t.equal((await bob.post(`/dashboard/keys/${encodeURIComponent(alicesKey.key)}/revoke`, { _csrf: bobsToken })).status, 404, 'nor does the key itself in place of its id');
  t.ok(await works(alicesKey.key));
});

t.test('with the right token the same forms work', async (t) => {
  const token = await alice.sessionCsrf();
  t.equal((await alice.post(`/dashboard/keys/${alicesKey.apiKeyId}/revoke`, { _csrf: token })).status, 303, 'alice revokes her key');
  t.equal((await alice.post('/auth/sign-out', { _csrf: token })).status, 303, 'and signs out');
  t.equal((await alice.get('/dashboard')).status, 303, 'signed out');
});
