import t from 'tap';
import { createClient } from '@redis/client';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { historyOf, usedOf } from '../../helpers/usage-of.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';
import { TEST_REDIS_URL } from '../../helpers/test-env.js';

const stack = await startInProcessStack(t);
const api = await stack.startApi();

const withKey = (apiKey: string, key: string) => ({ apiKey, headers: { 'idempotency-key': key } });

t.test('the same key twice charges once and replays a byte-identical body', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const first = await request(api.baseUrl, '/v1/scrape?keyword=sony&count=20', withKey(apiKey, 'order-1'));
  const second = await request(api.baseUrl, '/v1/scrape?keyword=sony&count=20', withKey(apiKey, 'order-1'));
  t.strictSame([first.status, second.status], [200, 200]);
  t.equal(second.text, first.text, 'byte-identical');
  t.equal(first.headers.get('idempotent-replayed'), null);
  t.equal(second.headers.get('idempotent-replayed'), 'true');
  t.not(second.headers.get('x-request-id'), first.headers.get('x-request-id'), 'the replay is a request of its own');
  t.equal(second.body.requestId, first.headers.get('x-request-id'), 'whose body is the first answer');
  t.equal(await usedOf(stack, workspaceId), 1, 'charged once');
  const [replay, original] = await historyOf(stack, workspaceId, 2);
  t.match(replay, { status: 200, charged: 0, resultCount: 20 });
  t.match(original, { status: 200, charged: 1, resultCount: 20 });
  const equivalent = await request(api.baseUrl, '/v1/scrape?count=20&keyword=sony&sold=true&page=1', withKey(apiKey, 'order-1'));
  t.equal(equivalent.headers.get('idempotent-replayed'), 'true', 'defaults spelled out or left out are the same parameters');
});

t.test('20 parallel requests with one key run the upstream once', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { concurrency: 50 });
  const responses = await Promise.all(
    Array.from({ length: 20 }, () => request(api.baseUrl, '/v1/scrape?keyword=camera+sim:slow=800&count=5', withKey(apiKey, 'burst'))),
  );
  const ran = responses.filter((response) => response.status === 200);
  t.equal(ran.length, 1, 'one ran');
  const waiting = responses.filter((response) => response.status === 409);
  t.equal(waiting.length, 19);
  for (const response of waiting) assertError(t, response, 409, 'idempotency_in_progress');
  t.equal(await usedOf(stack, workspaceId), 1, 'one upstream call, one charge');
  const after = await request(api.baseUrl, '/v1/scrape?keyword=camera+sim:slow=800&count=5', withKey(apiKey, 'burst'));
  t.strictSame([after.status, after.headers.get('idempotent-replayed'), after.text], [200, 'true', ran[0]!.text], 'afterwards the answer is replayed');
});

t.test('other parameters, another path, a failure, another workspace', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  t.equal((await request(api.baseUrl, '/v1/scrape?keyword=lamp', withKey(apiKey, 'k1'))).status, 200);
  assertError(t, await request(api.baseUrl, '/v1/scrape?keyword=lamp&count=10', withKey(apiKey, 'k1')), 409, 'idempotency_key_reused');
  assertError(t, await request(api.baseUrl, '/public/scrape?keyword=lamp', withKey(apiKey, 'k1')), 409, 'idempotency_key_reused');

  assertError(t, await request(api.baseUrl, '/v1/scrape?keyword=lamp+sim:error', withKey(apiKey, 'k2')), 502, 'upstream_error');
  const retry = await request(api.baseUrl, '/v1/scrape?keyword=lamp+sim:error', withKey(apiKey, 'k2'));
  assertError(t, retry, 502, 'upstream_error');
  t.equal(retry.headers.get('idempotent-replayed'), null, 'a failure is not stored: the retry ran again');
  t.equal((await request(api.baseUrl, '/v1/scrape?keyword=other', withKey(apiKey, 'k2'))).status, 200, 'and the key is free for other parameters');
  t.equal(await usedOf(stack, workspaceId), 2);

  const other = await createWorkspace(stack);
  const theirs = await request(api.baseUrl, '/v1/scrape?keyword=lamp', withKey(other.apiKey, 'k1'));
  t.strictSame([theirs.status, theirs.headers.get('idempotent-replayed')], [200, null], 'keys are scoped to the workspace');
  t.equal(await usedOf(stack, other.workspaceId), 1);

  const category = await request(api.baseUrl, '/v1/scrape/category?categoryId=7', withKey(apiKey, 'k3'));
  const categoryAgain = await request(api.baseUrl, '/v1/scrape/category?categoryId=7', withKey(apiKey, 'k3'));
  t.strictSame([category.status, categoryAgain.headers.get('idempotent-replayed'), categoryAgain.text === category.text], [200, 'true', true], 'category browse too');
});

t.test('a malformed key is 400 invalid_idempotency_key, before anything runs', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  for (const key of ['', 'x'.repeat(256), 'tab\there', 'ünïcode']) {
    assertError(t, await request(api.baseUrl, '/v1/scrape?keyword=a', withKey(apiKey, key)), 400, 'invalid_idempotency_key');
  }
  t.equal((await request(api.baseUrl, '/v1/scrape?keyword=a', withKey(apiKey, 'x'.repeat(255)))).status, 200, '255 characters is fine');
  t.equal(await usedOf(stack, workspaceId), 1);
});

t.test('two Idempotency-Key headers are refused, not merged into one key', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const { request: rawRequest } = await import('node:http');
  const url = new URL(`${api.baseUrl}/v1/scrape?keyword=lamp`);
  const answer = await new Promise<{ status: number; body: string; requestId: string | undefined }>((resolve, reject) => {
    const outgoing = rawRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: 'GET', headers: ['host', url.host, 'authorization', `Bearer ${apiKey}`, 'idempotency-key', 'a', 'idempotency-key', 'b'] },
      (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body, requestId: incoming.headers['x-request-id'] as string | undefined }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
  t.equal(answer.status, 400);
  const body = JSON.parse(answer.body);
  t.equal(body.code, 'invalid_idempotency_key');
  t.equal(body.requestId, answer.requestId);
  t.equal(await usedOf(stack, workspaceId), 0, 'nothing ran');
});

t.test('replays are kept 24 hours', async (t) => {
  const { apiKey } = await createWorkspace(stack);
  await request(api.baseUrl, '/v1/scrape?keyword=ttl', withKey(apiKey, 'ttl-key'));
  const redis = await createClient({ url: TEST_REDIS_URL }).connect();
  try {
    const keys = await redis.keys(`${stack.redisKeyPrefix}idempotency:*`);
    const ttls = await Promise.all(keys.map((key) => redis.pTTL(key)));
    const day = 24 * 3600 * 1000;
    t.ok(ttls.some((ttl) => ttl > day - 60_000 && ttl <= day), `a replay expires in 24 hours (${ttls.join(', ')} ms)`);
  } finally {
    redis.destroy();
  }
});
