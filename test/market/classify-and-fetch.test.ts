import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { classifyAnswer, type UpstreamAnswer } from '@comps/shared/market/classify-answer';
import { PageFetcher } from '@comps/shared/market/fetch/fetch-page';
import { interpretItemAnswer, interpretSearchAnswer } from '@comps/shared/market/interpret-answer';
import { readFixture } from '../helpers/fixtures.js';

function answer(status: number, body: string, extra: Partial<UpstreamAnswer> = {}): UpstreamAnswer {
  return { status, body, url: 'https://www.market.test/sch/i.html', retryAfterSeconds: null, ...extra };
}

const RESULTS_PAGE = '<html><head><title>x | eBay</title></head><body><h1 class="srp-controls__count-heading"><span class="BOLD">0</span> results</h1><ul class="srp-results"></ul></body></html>';

t.test('the classifier, before any parsing', async (t) => {
  t.equal(classifyAnswer(answer(200, readFixture('challenge_pardon_our_interruption.html')), 'search')?.code, 'upstream_blocked', 'the real bot challenge');
  t.equal(classifyAnswer(answer(200, '<html><head><title>Sign in or Register | eBay</title></head></html>'), 'search')?.code, 'upstream_blocked', 'a sign-in wall');
  t.equal(classifyAnswer(answer(200, '<html></html>', { url: 'https://signin.market.test/ws/eBayISAPI.dll' }), 'item')?.code, 'upstream_blocked', 'redirected to sign-in');
  t.equal(classifyAnswer(answer(403, '<html><div id="captcha-container"></div></html>'), 'search')?.code, 'upstream_blocked', 'a captcha behind 403');
  const signInAddresses = [
    'https://signin.market.test/signin/?ru=https%3A%2F%2Fwww.market.test%2Fsch%2Fi.html',
    'https://www.market.test/signin/s?ru=x',
    'https://www.market.test/splashui/challenge?ap=1&appName=orch&ru=https%3A%2F%2Fwww.market.test%2Fsch%2Fi.html',
    'https://www.market.test/ws/eBayISAPI.dll?SignIn&ru=x',
    'http://127.0.0.1:4010/market.com/signin/?ru=x',
  ];
  for (const url of signInAddresses) {
    const refusal = classifyAnswer(answer(200, '<html><body>Hello</body></html>', { url }), 'search');
    t.equal(refusal?.code, 'upstream_blocked', `redirected to ${url}`);
    t.match(refusal?.message, /signed-in session.*MARKET_COOKIE/, 'tells the operator what sold searches need');
  }
  t.match(classifyAnswer(answer(200, readFixture('challenge_pardon_our_interruption.html')), 'search')?.message, /bot check/);
  t.equal(classifyAnswer(answer(200, RESULTS_PAGE, { url: 'https://www.market.test/itm/signing-pen/123456789012' }), 'item'), null, 'a slug that starts with "signin" is not the sign-in page');
  const throttled = classifyAnswer(answer(429, '', { retryAfterSeconds: 7 }), 'search');
  t.strictSame([throttled?.code, throttled?.retryAfter], ['upstream_rate_limited', 7], '429 keeps its Retry-After');
  t.equal(classifyAnswer(answer(429, ''), 'search')?.retryAfter, 5, 'and has one when the marketplace gave none');
  t.equal(classifyAnswer(answer(500, 'oops'), 'search')?.code, 'upstream_error');
  t.equal(classifyAnswer(answer(403, 'forbidden'), 'search')?.code, 'upstream_error');
  t.equal(classifyAnswer(answer(404, 'gone'), 'item')?.code, 'item_not_found');
  t.equal(classifyAnswer(answer(404, 'gone'), 'search')?.code, 'upstream_error');
  t.equal(classifyAnswer(answer(200, readFixture('sold_us_scard_jetta_fewer_words.html')), 'search'), null, 'a real page that loads captcha scripts is not a challenge');
  t.equal(classifyAnswer(answer(200, readFixture('item_fr_article_presse.html')), 'item'), null);
});

t.test('after parsing: not a results page, zero results, an item that is not there', async (t) => {
  t.throws(() => interpretSearchAnswer(answer(200, '<html><body>Welcome</body></html>'), 'market.com'), { code: 'upstream_error' });
  const empty = interpretSearchAnswer(answer(200, readFixture('sold_us_scard_zero_results_bmw_x5.html')), 'market.com');
  t.strictSame([empty.items.length, empty.totalResults, empty.rowsDropped], [0, 0, 0], 'zero results is an empty page, not an error');
  t.strictSame(interpretSearchAnswer(answer(200, RESULTS_PAGE), 'market.com').items, []);
  t.throws(
    () => interpretItemAnswer(answer(200, "<html><head><title>Error Page | eBay</title></head><body>We looked everywhere. Looks like this page doesn't exist</body></html>"), 'market.com', '123456789012'),
    { code: 'item_not_found' },
  );
  t.throws(() => interpretItemAnswer(answer(200, RESULTS_PAGE), 'market.com', '123456789012'), { code: 'upstream_error' }, 'a search page where an item page was asked');
});

// A stand-in marketplace for the fetcher: slow, huge, compressed, redirecting, echoing pages.
const seen: Array<Record<string, string | string[] | undefined>> = [];
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  seen.push(request.headers);
  const url = new URL(request.url ?? '/', 'http://x');
  const send = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    response.end(body);
  };
  switch (url.pathname) {
    case '/slow':
      setTimeout(() => send(200, RESULTS_PAGE), 10_000).unref();
      return;
    case '/trickle':
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<html>');
      setTimeout(() => response.end('</html>'), 10_000).unref();
      return;
    case '/big':
      return send(200, 'x'.repeat(50_000));
    case '/big-chunked':
      response.writeHead(200, { 'content-type': 'text/html' });
      for (let i = 0; i < 50; i += 1) response.write('y'.repeat(1000));
      return response.end();
    case '/gzip':
      return send(200, gzipSync(RESULTS_PAGE), { 'content-encoding': 'gzip' });
    case '/br':
      return send(200, brotliCompressSync(Buffer.from('<html>ünïcödé</html>')), { 'content-encoding': 'br' });
    case '/bomb':
      return send(200, gzipSync(Buffer.alloc(200_000, 32)), { 'content-encoding': 'gzip' });
    case '/redirect':
      return send(302, '', { location: '/gzip' });
    case '/throttle':
      return send(429, '', { 'retry-after': '9' });
    default:
      return send(200, JSON.stringify(request.headers));
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// A deadline no ordinary answer here meets on a loaded machine, far before the slow ones' (10 s).
const fetcher = new PageFetcher({ userAgent: 'TestAgent/1.0 (like Chrome)', timeoutMs: 2000, maxResponseBytes: 20_000, cookie: 'session=abc' });
t.teardown(() => fetcher.close());

t.test('requests carry the site\'s language, a user agent, compression and the cookie', async (t) => {
  const page = await fetcher.fetch(`${origin}/echo`, 'de-DE,de;q=0.9');
  const headers = JSON.parse(page.body.whole().toString('utf8'));
  t.equal(headers['accept-language'], 'de-DE,de;q=0.9');
  t.equal(headers['user-agent'], 'TestAgent/1.0 (like Chrome)');
  t.equal(headers.cookie, 'session=abc');
  t.match(headers['accept-encoding'], /gzip/);
  t.equal(page.status, 200);
  t.ok(page.elapsedMs >= 0);
});

t.test('compressed answers are decompressed; a redirect is followed and the final address kept', async (t) => {
  t.equal((await fetcher.fetch(`${origin}/gzip`, 'en')).body.whole().toString('utf8'), RESULTS_PAGE);
  t.equal((await fetcher.fetch(`${origin}/br`, 'en')).body.whole().toString('utf8'), '<html>ünïcödé</html>', 'the bytes, for the parser to decode');
  const redirected = await fetcher.fetch(`${origin}/redirect`, 'en');
  t.strictSame([redirected.status, redirected.url, redirected.body.whole().toString('utf8')], [200, `${origin}/gzip`, RESULTS_PAGE]);
});

t.test('no answer in time is upstream_timeout, for the headers and for a body that trickles', async (t) => {
  for (const path of ['/slow', '/trickle']) {
    const started = Date.now();
    await t.rejects(fetcher.fetch(`${origin}${path}`, 'en'), { code: 'upstream_timeout' });
    const elapsed = Date.now() - started;
    t.ok(elapsed >= 1900 && elapsed < 8000, `${path} gave up at the deadline (${elapsed} ms), not at the answer`);
  }
});

t.test('answers past the size cap are refused, however they come', async (t) => {
  await t.rejects(fetcher.fetch(`${origin}/big`, 'en'), { code: 'upstream_error', message: /larger than 20000 bytes/ });
  await t.rejects(fetcher.fetch(`${origin}/big-chunked`, 'en'), { code: 'upstream_error' });
  await t.rejects(fetcher.fetch(`${origin}/bomb`, 'en'), { code: 'upstream_error' }, 'a small gzip that inflates past the cap');
});

t.test('Retry-After of a 429 is kept; an unreachable marketplace is upstream_error', async (t) => {
  t.equal((await fetcher.fetch(`${origin}/throttle`, 'en')).retryAfterSeconds, 9);
  await t.rejects(fetcher.fetch('http://127.0.0.1:1/', 'en'), { code: 'upstream_error' });
});

t.test('an outbound proxy from configuration carries the requests', async (t) => {
  const tunnels: string[] = [];
  const proxy = createServer();
  proxy.on('connect', (request, client, head) => {
    tunnels.push(request.url ?? '');
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxied = new PageFetcher({ userAgent: 'x', timeoutMs: 2000, maxResponseBytes: 20_000, proxyUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
  try {
    const page = await proxied.fetch(`${origin}/echo`, 'fr-FR');
    t.equal(JSON.parse(page.body.whole().toString('utf8'))['accept-language'], 'fr-FR');
    t.strictSame(tunnels, [origin.replace('http://', '')], 'through the proxy');
  } finally {
    await proxied.close();
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  }
});
