import t from 'tap';
import { assertError } from '../helpers/contract-assertions.js';
import { createWorkspace } from '../helpers/accounts-client.js';
import { request } from '../helpers/http-client.js';
import { startTestStack } from '../helpers/test-stack.js';

const stack = await startTestStack(t);
const { apiKey } = await createWorkspace(stack);

t.test('an unknown route is 404 not_found, with or without a key', async (t) => {
  for (const path of ['/nope', '/v2/scrape', '/v1/', '/usage/extra']) {
    assertError(t, await request(stack.baseUrl, path), 404, 'not_found');
    assertError(t, await request(stack.baseUrl, path, { apiKey }), 404, 'not_found');
  }
});

t.test('a known path with another method is 404 not_found', async (t) => {
  assertError(t, await request(stack.baseUrl, '/usage', { method: 'POST', apiKey, body: {} }), 404, 'not_found');
  assertError(t, await request(stack.baseUrl, '/v1/capabilities', { method: 'DELETE' }), 404, 'not_found');
});

t.test('every answer carries its own X-Request-Id', async (t) => {
  const ids = new Set<string>();
  for (let i = 0; i < 5; i += 1) {
    const response = await request(stack.baseUrl, '/v1/capabilities');
    ids.add(response.headers.get('x-request-id') ?? '');
  }
  t.equal(ids.size, 5);
});

t.test('a request id sent by the caller is not trusted', async (t) => {
  const response = await request(stack.baseUrl, '/nope', { headers: { 'x-request-id': 'req_spoofed' } });
  t.not(response.body.requestId, 'req_spoofed');
});
