import t, { type Test } from 'tap';
import { AppError } from '@comps/shared/errors/app-error';
import { canonicalHost, checkWebhookUrl, systemResolver, type ResolvedAddress, type Resolver, type WebhookAddressPolicy } from '@comps/shared/webhooks/address-policy';

const STRICT: WebhookAddressPolicy = { allowHttp: false, allowedHosts: [] };
const HTTP: WebhookAddressPolicy = { allowHttp: true, allowedHosts: [] };

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** A resolver that knows a few names, and records what it was asked. */
function fakeResolver(names: Record<string, ResolvedAddress[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  return Object.assign(async (hostname: string) => {
    asked.push(hostname);
    const answer = names[hostname];
    if (!answer) throw new AppError('invalid_webhook_url', 'the host does not resolve', { details: [{ path: 'url', message: 'the host does not resolve' }] });
    return answer;
  }, { asked });
}

const resolver = fakeResolver({
  'hooks.example.com': [v4('93.184.215.14'), v6('2606:2800:21f:cb07:6820:80da:af6b:8b2c')],
  'internal.example.com': [v4('10.1.2.3')],
  'mixed.example.com': [v4('93.184.215.14'), v4('192.168.1.20')],
  'mixed-v6.example.com': [v6('2606:4700::1111'), v6('::ffff:127.0.0.1')],
  'metadata.example.com': [v4('169.254.169.254')],
  'receiver.test': [v4('127.0.0.1')],
  // The absolute name, as the URL `http://receiver.test./` gives it.
  'receiver.test.': [v4('127.0.0.1')],
  'empty.example.com': [],
});

/** Asserts a refusal: `invalid_webhook_url`, its reason in the message and in a detail on `url`. */
async function refusedWith(t: Test, rawUrl: string, policy: WebhookAddressPolicy, reason: RegExp): Promise<void> {
  const error = await checkWebhookUrl(rawUrl, policy, resolver).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) return void t.fail(`${rawUrl}: expected a refusal, got ${String(error)}`);
  t.equal(error.code, 'invalid_webhook_url', `${rawUrl}: invalid_webhook_url`);
  t.equal(error.status, 400);
  t.match(error.message, reason, `${rawUrl}: ${error.message}`);
  t.strictSame(error.details, [{ path: 'url', message: error.message }], 'the reason is also a detail on url');
}

t.test('a public https URL is accepted, with the address to connect to', async (t) => {
  const checked = await checkWebhookUrl('https://hooks.example.com/comps?x=1', STRICT, resolver);
  t.equal(checked.url.href, 'https://hooks.example.com/comps?x=1');
  t.strictSame(checked.address, v4('93.184.215.14'), 'the first of the resolver\'s answers');
  t.strictSame(await checkWebhookUrl('https://8.8.8.8:8443/', STRICT, resolver).then(({ address }) => address), v4('8.8.8.8'), 'an IPv4 literal is its own address');
  t.strictSame(await checkWebhookUrl('https://[2606:4700::1111]/', STRICT, resolver).then(({ address }) => address), v6('2606:4700::1111'), 'so is an IPv6 literal, without brackets');
  t.strictSame(await checkWebhookUrl('https://[::ffff:8.8.8.8]/', STRICT, resolver).then(({ address }) => address), v6('::ffff:808:808'), 'an IPv4-mapped public address');
  t.strictSame(await checkWebhookUrl('http://hooks.example.com/', HTTP, resolver).then(({ address }) => address), v4('93.184.215.14'), 'http when the operator allows it');
});

t.test('the resolver is asked only for names, never for IP literals', async (t) => {
  const before = resolver.asked.length;
  await checkWebhookUrl('https://8.8.8.8/', STRICT, resolver);
  await checkWebhookUrl('https://[2606:4700::1111]/', STRICT, resolver);
  t.equal(resolver.asked.length, before);
  await checkWebhookUrl('https://HOOKS.Example.COM/', STRICT, resolver);
  t.equal(resolver.asked.at(-1), 'hooks.example.com', 'a name, as the URL parser lower-cases it');
});

t.test('only https, unless the operator allows http', async (t) => {
  await refusedWith(t, 'http://hooks.example.com/', STRICT, /must start with https:\/\/$/);
  for (const url of ['ftp://hooks.example.com/', 'file:///etc/passwd', 'ws://hooks.example.com/', 'javascript:alert(1)', 'data:text/plain,hi', 'gopher://hooks.example.com/']) {
    await refusedWith(t, url, STRICT, /must start with https:\/\//);
    await refusedWith(t, url, HTTP, /must start with https:\/\/ or http:\/\//);
  }
});

t.test('malformed URLs are refused', async (t) => {
  for (const url of ['', 'not a url', 'hooks.example.com/path', '//hooks.example.com/', 'https://', 'https://exa mple.com/', 'https://[::1/', 'https://hooks.example.com:99999/']) {
    await refusedWith(t, url, STRICT, /not a valid absolute URL/);
  }
});

t.test('credentials in the URL are refused', async (t) => {
  await refusedWith(t, 'https://user:pass@hooks.example.com/', STRICT, /user name or password/);
  await refusedWith(t, 'https://user@hooks.example.com/', STRICT, /user name or password/);
  await refusedWith(t, 'https://:pass@hooks.example.com/', STRICT, /user name or password/);
});

t.test('internal addresses are refused, even with http allowed', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['http://127.0.0.1/', /the address 127\.0\.0\.1, .*loopback \(127\.0\.0\.0\/8\)/],
    ['http://127.1:8080/', /the address 127\.0\.0\.1, .*loopback/],
    ['http://2130706433/', /the address 127\.0\.0\.1, .*loopback/],
    ['http://0x7f.0.0.1/', /the address 127\.0\.0\.1, .*loopback/],
    ['http://10.0.0.1/', /the address 10\.0\.0\.1, .*private \(10\.0\.0\.0\/8\)/],
    ['http://172.16.5.4/', /private \(172\.16\.0\.0\/12\)/],
    ['http://192.168.0.1/', /private \(192\.168\.0\.0\/16\)/],
    ['http://100.64.0.1/', /carrier-grade NAT/],
    ['http://169.254.169.254/latest/meta-data/', /cloud metadata \(169\.254\.169\.254\)/],
    ['http://0.0.0.0/', /this network/],
    ['http://[::1]/', /the address ::1, .*loopback \(::1\)/],
    ['http://[::]/', /unspecified/],
    ['http://[::ffff:127.0.0.1]/', /the address ::ffff:7f00:1, .*loopback \(127\.0\.0\.0\/8\), embedded in IPv4-mapped/],
    ['http://[::ffff:a9fe:a9fe]/', /cloud metadata .*IPv4-mapped/],
    ['http://[fd00:ec2::254]/', /cloud metadata \(fd00:ec2::254\)/],
    ['http://[fe80::1]/', /link-local/],
    ['http://[fc00::1]/', /unique-local/],
    ['http://[64:ff9b::10.0.0.1]/', /private \(10\.0\.0\.0\/8\), embedded in NAT64/],
    ['http://[2002:7f00:1::]/', /loopback \(127\.0\.0\.0\/8\), embedded in 6to4/],
    // A name's address is not told (it would map internal names); the range is.
    ['http://internal.example.com/', /^the host internal\.example\.com resolves to an address, .*private \(10\.0\.0\.0\/8\)$/],
    ['http://metadata.example.com/', /resolves to an address, .*cloud metadata/],
    ['http://mixed.example.com/', /resolves to an address, .*private \(192\.168\.0\.0\/16\)/],
    ['http://mixed-v6.example.com/', /resolves to an address, .*loopback/],
    ['http://receiver.test:4100/hook', /resolves to an address, .*loopback/],
  ];
  for (const [url, reason] of cases) {
    await refusedWith(t, url, HTTP, reason);
    await refusedWith(t, url.replace(/^http:/, 'https:'), STRICT, reason);
  }
});

t.test('a name that does not resolve is refused', async (t) => {
  await refusedWith(t, 'https://nowhere.example.com/', STRICT, /does not resolve/);
  await refusedWith(t, 'https://empty.example.com/', STRICT, /does not resolve/);
});

t.test('the operator\'s allowed hosts skip the ranges check, and only they do', async (t) => {
  const allowing = (...allowedHosts: string[]): WebhookAddressPolicy => ({ allowHttp: true, allowedHosts });
  t.strictSame((await checkWebhookUrl('http://receiver.test:4100/hook', allowing('receiver.test'), resolver)).address, v4('127.0.0.1'), 'a listed name');
  t.strictSame((await checkWebhookUrl('http://RECEIVER.test./hook', allowing('Receiver.Test'), resolver)).address, v4('127.0.0.1'), 'case and a trailing dot do not matter');
  t.strictSame((await checkWebhookUrl('http://127.0.0.1:4100/', allowing('127.0.0.1'), resolver)).address, v4('127.0.0.1'), 'a listed IPv4 literal');
  t.strictSame((await checkWebhookUrl('http://[::1]:4100/', allowing('::1'), resolver)).address, v6('::1'), 'a listed IPv6 literal, without brackets');
  t.strictSame((await checkWebhookUrl('http://[::1]:4100/', allowing('[::1]'), resolver)).address, v6('::1'), 'or with them');
  t.strictSame((await checkWebhookUrl('http://[::ffff:127.0.0.1]/', allowing('::FFFF:7F00:1'), resolver)).address, v6('::ffff:7f00:1'), 'the same IPv6 address spelt otherwise');
  t.strictSame((await checkWebhookUrl('http://mixed.example.com/', allowing('mixed.example.com'), resolver)).address, v4('93.184.215.14'), 'a listed name: its first address');
  await refusedWith(t, 'http://127.0.0.1/', allowing('receiver.test'), /loopback/);
  await refusedWith(t, 'http://sub.receiver.test/', allowing('receiver.test'), /does not resolve/);
  await refusedWith(t, 'http://internal.example.com/', allowing('example.com', 'internal.example'), /private/);
  await refusedWith(t, 'http://[::2]/', allowing('::1'), /IPv4-compatible/);
  await refusedWith(t, 'http://receiver.test/', { allowHttp: false, allowedHosts: ['receiver.test'] }, /must start with https:\/\//);
});

t.test('canonical hosts', async (t) => {
  t.equal(canonicalHost('Hooks.Example.COM.'), 'hooks.example.com');
  t.equal(canonicalHost('[::1]'), '::1');
  t.equal(canonicalHost('0:0:0:0:0:0:0:1'), '::1');
  t.equal(canonicalHost('::FFFF:127.0.0.1'), '::ffff:7f00:1');
  t.equal(canonicalHost('2001:DB8:0:0:1::1'), '2001:db8::1:0:0:1');
  t.equal(canonicalHost('127.0.0.1'), '127.0.0.1');
  t.equal(canonicalHost('fe80::1%eth0'), 'fe80::1%eth0', 'a zone is kept as written');
});

t.test('the system resolver', async (t) => {
  const addresses = await systemResolver('localhost');
  t.ok(addresses.length > 0, 'localhost resolves (the hosts file)');
  t.ok(addresses.every(({ address, family }) => (family === 4 && address.startsWith('127.')) || (family === 6 && address === '::1')), JSON.stringify(addresses));
  t.strictSame(await systemResolver('127.0.0.1'), [v4('127.0.0.1')], 'an address resolves to itself');
  await t.rejects(systemResolver('nothing-here.invalid'), { code: 'invalid_webhook_url', message: 'the host does not resolve', details: [{ path: 'url', message: 'the host does not resolve' }] });
  await t.rejects(checkWebhookUrl('https://localhost/', STRICT, systemResolver), { code: 'invalid_webhook_url', message: /the host localhost resolves to/ }, 'localhost is refused through the real resolver');
});
