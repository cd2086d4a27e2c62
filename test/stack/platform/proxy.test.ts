import { connect } from 'node:net';
import t from 'tap';
import { errorBodySchema } from '@comps/shared/contract/error-body';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { assertError, assertShape } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

// Every answer a client receives keeps the contract, including those nobody behind Caddy made: Caddy's own (a
// service that cannot be reached) and Node's (a request line and headers over 16 KB). Requests that Go's HTTP server
// refuses before Caddy sees them cannot be shaped by any Caddy configuration; their exact answers are documented here.
// Slow clients are cut off (short timeouts for the test; 10 s and 2 min by default).

const stack = await startTestStack(t, { env: { CADDY_READ_HEADER_TIMEOUT: '1s', CADDY_IDLE_TIMEOUT: '2s' } });
const { port } = new URL(stack.baseUrl);
const CADDY_REQUEST_ID = /^req_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface RawExchange {
  /** Everything the server sent. */
  answer: string;
  /** Milliseconds from connecting until the server closed the connection (undefined: still open at the limit). */
  closedAfterMs: number | undefined;
}

/** Writes bytes no HTTP client would send and reads the answer until the server closes (or `limitMs`). */
function rawExchange(bytes: string, limitMs = 5000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes, 'latin1'));
    let answer = '';
    const limit = setTimeout(() => {
      socket.destroy();
      resolve({ answer, closedAfterMs: undefined });
    }, limitMs);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(limit);
      resolve({ answer, closedAfterMs: Date.now() - started });
    });
  });
}

t.test('a request line or headers over 16 KB: the api answers 400 invalid_request in the contract shape', async (t) => {
  const longUrl = await request(stack.baseUrl, `/v1/scrape?keyword=${'a'.repeat(20_000)}`);
  const body = assertError(t, longUrl, 400, 'invalid_request');
  t.match(body?.error, /16 KB/, 'says what the limit is');

  const longHeader = await request(stack.baseUrl, '/v1/capabilities', { headers: { 'x-padding': 'b'.repeat(20_000) } });
  assertError(t, longHeader, 400, 'invalid_request');

  // Far over the limit (Caddy passes up to 1 MB on), the api answers before the request has fully arrived; it reads
  // on until the caller is done, else the connection would be reset under Caddy and the answer lost (a 503).
  const huge = await Promise.all(
    Array.from({ length: 10 }, () => request(stack.baseUrl, '/v1/capabilities', { headers: { 'x-padding': 'c'.repeat(600_000) } })),
  );
  t.strictSame(
    huge.map((response) => response.status),
    Array(10).fill(400),
    'headers of 600 KB: every answer is the 400',
  );
});

t.test("requests Go's HTTP server refuses before Caddy sees them get Go's plain-text answer (no hook exists)", async (t) => {
  const goAnswer = (reason: string) =>
    `HTTP/1.1 ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${reason}`;
  const cases: Array<[string, string, string]> = [
    ['a malformed escape in the path', 'GET /v1/scrape/%zz HTTP/1.1\r\nHost: x\r\n\r\n', '400 Bad Request'],
    ['a CR inside a header value', 'GET /v1/capabilities HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n', '400 Bad Request: invalid header value'],
    ['a NUL inside a header value', 'GET /v1/capabilities HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', '400 Bad Request: invalid header value'],
    ['a request line that is not HTTP', 'NONSENSE\r\n\r\n', '400 Bad Request'],
    ['a DEL byte inside a header value', 'GET /v1/capabilities HTTP/1.1\r\nHost: x\r\nX-A: a\x7fb\r\n\r\n', '400 Bad Request: invalid header value'],
    ['a Content-Length that is not a number', 'POST /v1/scrape/max HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', '400 Bad Request'],
    ['two Host headers', 'GET /v1/capabilities HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n', '400 Bad Request'],
  ];
  for (const [what, bytes, reason] of cases) {
    const { answer } = await rawExchange(bytes);
    t.equal(answer, goAnswer(reason), `${what}: ${reason}, text/plain, no X-Request-Id`);
  }
  // A transfer coding other than chunked is Go's 501, in its own words.
  const { answer: coded } = await rawExchange('POST /v1/scrape/max HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n');
  t.match(coded, /^HTTP\/1\.1 501 Not Implemented\r\n[\s\S]*\r\n\r\nUnsupported transfer encoding$/, 'Transfer-Encoding: gzip: 501 from Go, plain text');
  t.notMatch(coded, /X-Request-Id/i, 'without X-Request-Id');
  // Headers over Go's own limit (1 MB) never reach Caddy's handlers either.
  const overGoLimit = await request(stack.baseUrl, '/v1/capabilities', { headers: { 'x-padding': 'd'.repeat(1_100_000) } });
  t.equal(overGoLimit.status, 431, 'headers over 1 MB: 431 from Go');
  t.equal(overGoLimit.text, '431 Request Header Fields Too Large', 'in plain text');
  t.equal(overGoLimit.headers.get('x-request-id'), null, 'without X-Request-Id');
});

/** The status line, the headers (lower-cased names) and the JSON body of a raw answer. */
function parseAnswer(answer: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

t.test('protocol edges are answered in the contract shape, with X-Request-Id', async (t) => {
  const { apiKey } = await createWorkspace(stack);
  const auth = `Authorization: Bearer ${apiKey}\r\n`;
  const cases: Array<[string, string, number, string, string | null]> = [
    ['a malformed chunked body', `POST /v1/scrape/max HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`, 400, 'invalid_request', null],
    ['an unknown method on a known path', 'FOO /v1/scrape/max HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 405, 'method_not_allowed', 'POST, GET'],
    ['CONNECT on a known path', 'CONNECT /v1/scrape HTTP/1.1\r\nHost: x\r\n\r\n', 405, 'method_not_allowed', 'GET'],
    ['a JSON endpoint given a body without Content-Type', `POST /v1/scrape/max HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 15\r\nConnection: close\r\n\r\n{"keyword":"x"}`, 415, 'unsupported_media_type', null],
  ];
  for (const [what, bytes, status, code, allow] of cases) {
    const answer = parseAnswer((await rawExchange(bytes)).answer);
    t.equal(answer.status, status, `${what}: ${status}`);
    assertShape(t, errorBodySchema, answer.body, `${what}: the error object`);
    t.equal((answer.body as { code: string }).code, code, `${what}: ${code}`);
    t.match(answer.headers['x-request-id'], /^req_/, `${what}: X-Request-Id`);
    t.equal((answer.body as { requestId: string }).requestId, answer.headers['x-request-id'], `${what}: requestId repeats it`);
    if (allow) t.equal(answer.headers.allow, allow, `${what}: Allow`);
  }
  for (const encoding of ['gzip', 'deflate', 'br']) {
    const corrupt = await request(stack.baseUrl, '/v1/scrape/max', { method: 'POST', apiKey, rawBody: 'not compressed at all', headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
    assertError(t, corrupt, 400, 'invalid_request');
  }
});

t.test('a malformed escape in the query reaches the api, which answers in the contract shape', async (t) => {
  const { answer } = await rawExchange('GET /v1/scrape?keyword=lamp%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  t.match(answer, /^HTTP\/1\.1 \d{3} /, 'an HTTP answer');
  t.match(answer, /\r\nX-Request-Id: req_[0-9A-HJKMNP-TV-Z]{26}\r\n/i, 'made by the api (X-Request-Id)');
  t.match(answer, /\r\nContent-Type: application\/json/i, 'a JSON body');
});

t.test('slow clients are cut off: header-read and idle timeouts', async (t) => {
  const slow = await Promise.all(
    Array.from({ length: 5 }, () => rawExchange('GET /v1/capabilities HTTP/1.1\r\nHost: x\r\nX-Slow: ', 15_000)),
  );
  t.ok(
    slow.every((exchange) => exchange.closedAfterMs !== undefined),
    'five connections that never finish their headers are all closed by Caddy',
  );
  t.comment(`closed after ${slow.map((exchange) => exchange.closedAfterMs).join(', ')} ms (read_header 1s)`);

  const idle = await rawExchange('GET /v1/capabilities HTTP/1.1\r\nHost: x\r\n\r\n', 15_000);
  t.match(idle.answer, /^HTTP\/1\.1 200 OK/, 'a complete request is answered');
  t.not(idle.closedAfterMs, undefined, 'the idle keep-alive connection is closed afterwards');
});

t.test('the api unreachable: Caddy answers 503 service_unavailable in the contract shape', async (t) => {
  await stack.processes.api.stop();
  for (const path of ['/v1/scrape?keyword=lamp', '/v1/capabilities', '/usage']) {
    const response = await request(stack.baseUrl, path, { apiKey: 'sk_whatever' });
    t.equal(response.status, 503, `${path}: 503`);
    const body = assertShape(t, errorBodySchema, response.body, `${path}: the contract's error object`);
    t.equal(body.code, 'service_unavailable');
    t.match(response.headers.get('x-request-id'), CADDY_REQUEST_ID, "X-Request-Id is req_ + Caddy's own request id");
    t.equal(body.requestId, response.headers.get('x-request-id'), 'requestId repeats it');
    t.notMatch(body.requestId, REQUEST_ID_PATTERN, '(not an id the api made)');
    t.equal(response.headers.get('retry-after'), '2', 'Retry-After');
    t.equal(body.retryAfter, 2, 'retryAfter repeats it');
    t.match(response.headers.get('content-type'), /^application\/json/);
  }
});

t.test('accounts unreachable: the dashboard, sign-in and the API reference answer a 503 page, since a person reads them', async (t) => {
  await stack.processes.accounts.stop();
  for (const path of ['/dashboard', '/auth/sign-in', '/docs']) {
    const response = await fetch(`${stack.baseUrl}${path}`, { redirect: 'manual' });
    t.equal(response.status, 503, `${path}: 503`);
    t.match(response.headers.get('content-type'), /^text\/html/, `${path}: a page`);
    t.equal(response.headers.get('retry-after'), '2');
    const page = await response.text();
    t.match(page, /The dashboard is unavailable/);
    t.match(page, response.headers.get('x-request-id')!, 'the page shows the request id to quote');
  }
});
