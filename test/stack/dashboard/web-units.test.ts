import t from 'tap';
import { csrfTokenFor, csrfTokenMatches } from '../../../services/accounts/src/sessions/csrf.js';
import { newSecretToken } from '../../../services/accounts/src/sessions/secret-token.js';
import { isPlausibleEmail, normalizeEmail } from '../../../services/accounts/src/users/email-address.js';
import { hashPassword, needsRehash, verifyPassword } from '../../../services/accounts/src/users/password-hash.js';
import { passwordProblem } from '../../../services/accounts/src/users/password-policy.js';
import { html, raw } from '../../../services/accounts/src/web/html.js';
import { openNewKey, sealNewKey } from '../../../services/accounts/src/web/new-key-flash.js';
import { safeNextPath } from '../../../services/accounts/src/web/safe-next-path.js';
import { scaleTop } from '../../../services/accounts/src/web/views/daily-chart.js';

// Fast, in-process: the dashboard's logic with many cases. The user paths are tested through Caddy.

t.test('safeNextPath: only a page of ours', async (t) => {
  const ours: Array<[string, string]> = [
    ['/dashboard', '/dashboard'],
    ['/dashboard/keys', '/dashboard/keys'],
    ['/dashboard/requests?from=2026-11-01&to=2026-11-02', '/dashboard/requests?from=2026-11-01&to=2026-11-02'],
    ['/docs', '/docs'],
    ['/docs#/Listings', '/docs'],
  ];
  for (const [input, expected] of ours) t.equal(safeNextPath(input), expected, `${input} is kept`);
  const refused = [
    undefined, 42, '', 'dashboard', '//evil.example', '//evil.example/dashboard', '///evil.example', 'https://evil.example/dashboard',
    'http:/evil.example', '/\\evil.example', '\\\\evil.example', '/dashboard\\..\\..\\evil', '/\t/evil.example', '/\n/evil.example',
    '/%2F%2Fevil.example', '/%5C%5Cevil.example', '/dashboard/..', '/dashboard/../auth/sign-out', '/auth/sign-in', '/v1/scrape',
    'javascript:alert(1)', '/dashboardx', `/dashboard/${'x'.repeat(600)}`,
  ];
  for (const input of refused) t.equal(safeNextPath(input), '/dashboard', `${JSON.stringify(input)} is refused`);
});

t.test('html escapes what it is given, and only that', async (t) => {
  const hostile = `<script>alert("x")</script>'&`;
  t.equal(html`<p title="${hostile}">${hostile}</p>`.value, '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;</p>');
  t.equal(html`<ul>${['a<', 'b'].map((item) => html`<li>${item}</li>`)}</ul>`.value, '<ul><li>a&lt;</li><li>b</li></ul>', 'nested markup stays markup');
  t.equal(html`${null}${undefined}${false}${0}`.value, '0', 'nothing for null, undefined and false');
  t.equal(html`${raw('<b>')}`.value, '<b>');
});

t.test('CSRF tokens belong to one key', async (t) => {
  const session = newSecretToken();
  const other = newSecretToken();
  const token = csrfTokenFor(session);
  t.ok(csrfTokenMatches(session, token));
  t.equal(csrfTokenFor(session), token, 'stable for the session');
  t.notOk(csrfTokenMatches(other, token), 'another session\'s token does not match');
  t.notOk(csrfTokenMatches(session, ''), 'nor an empty one');
  t.notOk(csrfTokenMatches(session, undefined));
  t.notOk(csrfTokenMatches(session, [token]));
  t.notOk(csrfTokenMatches(session, `${token}x`));
  t.notOk(csrfTokenMatches(undefined, token), 'nor anything without a key');
});

t.test('passwords: scrypt, verified in constant time, rehashed when the parameters change', async (t) => {
  const stored = await hashPassword('correct horse battery staple');
  t.match(stored, /^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/, 'a PHC string with its parameters');
  t.not(await hashPassword('correct horse battery staple'), stored, 'salted');
  t.ok(await verifyPassword('correct horse battery staple', stored));
  t.notOk(await verifyPassword('correct horse battery stapl', stored));
  t.notOk(await verifyPassword('correct horse battery staple', null), 'no hash: false (after the same work)');
  t.notOk(await verifyPassword('x', '$scrypt$ln=30,r=8,p=1$AAAA$AAAA'), 'a hash that would cost too much is not tried');
  t.notOk(needsRehash(stored));
  const older = '$scrypt$ln=14,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$' + 'A'.repeat(43);
  t.ok(needsRehash(older), 'weaker parameters are replaced at the next sign-in');
  t.equal(await verifyPassword('cafe\u0301 au lait please', await hashPassword('café au lait please')), true, 'Unicode is normalized (NFC)');
});

t.test('password policy and e-mail addresses', async (t) => {
  t.equal(passwordProblem('correct horse battery staple', 'a@example.com'), null);
  t.match(passwordProblem('short', 'a@example.com'), /at least 12/);
  t.match(passwordProblem('x'.repeat(257), 'a@example.com'), /at most 256/);
  t.match(passwordProblem('abababababab', 'a@example.com'), /different characters/);
  t.match(passwordProblem('Alice@Example.com', 'alice@example.com'), /not your e-mail/);
  t.equal(passwordProblem('ünïcödé pässwörd', 'a@example.com'), null);
  t.equal(normalizeEmail('  Alice@Example.COM '), 'alice@example.com');
  for (const good of ['a@example.com', 'first.last+tag@sub.example.co.uk']) t.ok(isPlausibleEmail(good), good);
  for (const bad of ['', 'a', 'a@b', 'a@b.c', 'a @example.com', 'a@@example.com', '<a>@example.com', `${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(250)}.com`]) {
    t.notOk(isPlausibleEmail(bad), JSON.stringify(bad));
  }
});

t.test('the new key is sealed to its session', async (t) => {
  const session = newSecretToken();
  const sealed = sealNewKey(session, { apiKeyId: 'key_01', key: 'sk_secret' });
  t.notMatch(sealed, /sk_secret/, 'the key is not readable in the cookie');
  t.strictSame(openNewKey(session, sealed), { apiKeyId: 'key_01', key: 'sk_secret' });
  t.equal(openNewKey(newSecretToken(), sealed), null, 'another session cannot open it');
  // One bit flipped in the nonce, the tag, and the first and last bytes of the sealed key. (Edited
  // as bytes: a changed base64 character can decode to the same bytes.)
  const raw = Buffer.from(sealed, 'base64url');
  for (const at of [0, 12, 28, raw.length - 1]) {
    const tampered = Buffer.from(raw);
    tampered[at] = tampered[at]! ^ 1;
    t.equal(openNewKey(session, tampered.toString('base64url')), null, `a cookie altered at byte ${at} opens nothing`);
  }
  t.equal(openNewKey(session, 'short'), null);
});

t.test('the chart\'s scale has four whole steps', async (t) => {
  const cases: Array<[number, number]> = [[0, 4], [1, 4], [4, 4], [5, 8], [7, 8], [9, 20], [100, 100], [101, 200], [180, 200], [250, 400], [1000, 1000], [1234, 2000]];
  for (const [max, top] of cases) {
    t.equal(scaleTop(max), top, `${max} → ${top}`);
    t.equal(scaleTop(max) % 4, 0);
  }
});
