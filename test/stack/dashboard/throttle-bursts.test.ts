import t from 'tap';
import { FormClient, GOOD_PASSWORD, uniqueEmail } from '../../helpers/dashboard.js';
import { startTestStack } from '../../helpers/test-stack.js';

// The throttles take their count before the work (the password's hash, the new account), so that
// attempts sent all at once are each counted; and an account is counted as the database finds it.
const stack = await startTestStack(t, {
  serviceEnv: { accounts: { SIGN_IN_FAILURES_PER_ACCOUNT: '4', SIGN_IN_FAILURES_PER_ADDRESS: '1000', SIGN_UPS_PER_ADDRESS_PER_HOUR: '6' } },
});

t.test('twelve wrong passwords sent at once for one account: four are checked, eight refused', async (t) => {
  const target = uniqueEmail('burst');
  await new FormClient(stack.baseUrl).signUp(target);
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => new FormClient(stack.baseUrl).signIn(target, `burst guess ${i}`)));
  const statuses = answers.map((answer) => answer.status).sort();
  t.strictSame(statuses, [...Array(4).fill(400), ...Array(8).fill(429)]);
  t.equal((await new FormClient(stack.baseUrl).signIn(target)).status, 429, 'the right password too, until the window ends');
});

t.test('spellings the database takes for the same address share one count', async (t) => {
  const target = uniqueEmail('spelling');
  await new FormClient(stack.baseUrl).signUp(target);
  const accented = target.replace('spelling', 'spélling');
  const spellings = [target, target.toUpperCase(), accented, accented.toUpperCase()];
  for (const spelling of spellings) t.equal((await new FormClient(stack.baseUrl).signIn(spelling, 'a wrong guess here')).status, 400, `${spelling}: wrong`);
  t.equal((await new FormClient(stack.baseUrl).signIn(target)).status, 429, 'four failures under four spellings lock the account');
});

t.test('a successful sign-in clears the account\'s count', async (t) => {
  const target = uniqueEmail('clears');
  await new FormClient(stack.baseUrl).signUp(target);
  for (let attempt = 1; attempt <= 3; attempt += 1) await new FormClient(stack.baseUrl).signIn(target, `guess number ${attempt}`);
  t.equal((await new FormClient(stack.baseUrl).signIn(target)).status, 303, 'the fourth attempt, right, signs in');
  for (let attempt = 1; attempt <= 3; attempt += 1) t.equal((await new FormClient(stack.baseUrl).signIn(target, `again ${attempt}`)).status, 400);
  t.equal((await new FormClient(stack.baseUrl).signIn(target)).status, 303, 'three failures after it still sign in');
});

t.test('sign-ups: a taken address counts, a refused form does not', async (t) => {
  // The tests above signed up three accounts from this address; the limit is six an hour.
  const first = uniqueEmail('signup');
  t.equal((await new FormClient(stack.baseUrl).signUp(first)).status, 303, 'the fourth');
  t.equal((await new FormClient(stack.baseUrl).signUp(first)).status, 409, 'the same address again: taken, and counted (the fifth)');
  t.equal((await new FormClient(stack.baseUrl).signUp(uniqueEmail('weak'), 'short pass')).status, 400, 'a weak password: not counted');
  t.equal((await new FormClient(stack.baseUrl).signUp(uniqueEmail('signup'))).status, 303, 'the sixth');
  const refused = await new FormClient(stack.baseUrl).signUp(uniqueEmail('signup'));
  t.equal(refused.status, 429, 'the seventh is refused');
  t.ok(Number(refused.headers.get('retry-after')) >= 1, 'with Retry-After');
});

t.test('paths are case-sensitive: /DASHBOARD/keys is a 404 page, not a page without a session', async (t) => {
  for (const path of ['/DASHBOARD/keys', '/Dashboard', '/AUTH/sign-in']) {
    const answer = await new FormClient(stack.baseUrl).get(path);
    t.equal(answer.status, 404, path);
    t.match(answer.headers.get('content-type'), /^text\/html/, `${path}: a page`);
  }
});
