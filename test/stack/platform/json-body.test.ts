import t from 'tap';
import Koa from 'koa';
import { Router } from '@koa/router';
import { assignRequestId } from '@comps/shared/http/assign-request-id';
import { handleErrors } from '@comps/shared/http/handle-errors';
import { jsonBodyOf, parseJsonBody } from '@comps/shared/http/parse-json-body';
import { createLogger } from '@comps/shared/logging/create-logger';
import { listen } from '@comps/shared/runtime/http-server';
import { assertError } from '../../helpers/contract-assertions.js';
import { request } from '../../helpers/http-client.js';

// The JSON body rules every POST endpoint shares, on a real server with the shared middleware.
const app = new Koa();
app.silent = true;
const router = new Router();
router.post('/echo', parseJsonBody(), (ctx) => {
  ctx.body = { received: jsonBodyOf(ctx) };
});
app.use(assignRequestId());
app.use(handleErrors(createLogger('test', 'silent')));
app.use(router.routes());
const server = await listen(app.callback(), 0, '127.0.0.1');
t.teardown(() => server.close());
const base = `http://127.0.0.1:${server.port}`;

t.test('valid JSON is parsed', async (t) => {
  const response = await request(base, '/echo', { method: 'POST', body: { keywords: ['a'] } });
  t.equal(response.status, 200);
  t.strictSame(response.body, { received: { keywords: ['a'] } });
});

t.test('malformed JSON is 400 invalid_request', async (t) => {
  for (const raw of ['{"a":', 'not json', '{"a":1}}']) {
    assertError(t, await request(base, '/echo', { method: 'POST', rawBody: raw, headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
  }
});

t.test('a body over 64 KiB is 413 payload_too_large', async (t) => {
  const big = { text: 'x'.repeat(65 * 1024) };
  assertError(t, await request(base, '/echo', { method: 'POST', body: big }), 413, 'payload_too_large');
  const fits = { text: 'x'.repeat(60 * 1024) };
  t.equal((await request(base, '/echo', { method: 'POST', body: fits })).status, 200, 'just under the limit is fine');
});

t.test('another media type is 415 unsupported_media_type', async (t) => {
  assertError(t, await request(base, '/echo', { method: 'POST', rawBody: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
  assertError(t, await request(base, '/echo', { method: 'POST', rawBody: '{}' }), 415, 'unsupported_media_type');
});
