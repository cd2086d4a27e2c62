import t from 'tap';
import { migrateAll } from '@comps/scripts/migrate-all';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { dedicatedMariadb, dedicatedRedis } from '../../helpers/dedicated-servers.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

// This file stops and starts its own Redis and MariaDB, never the machine's shared ones.
const redis = await dedicatedRedis();
t.teardown(() => redis.destroy());
const mariadb = await dedicatedMariadb();
t.teardown(() => mariadb.destroy());
await migrateAll(mariadb.url);

const stack = await startTestStack(t, { env: { DATABASE_URL: mariadb.url, REDIS_URL: redis.url } });
// Its polls while waiting for recovery would reach the plan's 60 a minute: the rate is not what this file tests.
const { apiKey } = await createWorkspace(stack, { rate: 10_000 });

async function timed(path: string) {
  const started = Date.now();
  const response = await request(stack.baseUrl, path, { apiKey });
  return { response, ms: Date.now() - started };
}

t.test('with Redis stopped, authenticated requests fail fast with 503 and recover when it is back', async (t) => {
  t.equal((await request(stack.baseUrl, '/usage', { apiKey })).status, 200);
  await redis.stop();
  for (const path of ['/usage', '/requests']) {
    const { response, ms } = await timed(path);
    assertError(t, response, 503, 'service_unavailable');
    t.ok(ms < 5000, `${path} answered in ${ms} ms, not a hang`);
  }
  t.equal((await request(stack.baseUrl, '/v1/capabilities')).status, 200, 'capabilities need no Redis');
  t.equal((await request(`http://127.0.0.1:${stack.ports.apiInternal}`, '/readyz')).status, 503, 'the api reports unready');
  await redis.start();
  await eventually('the api answers /usage again', async () => ((await request(stack.baseUrl, '/usage', { apiKey })).status === 200 ? true : undefined), { timeoutMs: 10_000, intervalMs: 200 });
  t.pass('works again once Redis is back');
});

t.test('with Redis hung (SIGSTOP), requests answer 503 within about a second and 200 again after SIGCONT', async (t) => {
  t.equal((await request(stack.baseUrl, '/usage', { apiKey })).status, 200);
  redis.pause();
  try {
    const answers = await Promise.all(
      ['/usage', '/requests', '/v1/scrape?keyword=lamp', '/v1/item/311280697654', '/usage'].map((path) => timed(path)),
    );
    for (const { response, ms } of answers) {
      assertError(t, response, 503, 'service_unavailable');
      // The deadline is one second; the rest is the machine's own load: the bound tells the deadline from a hang.
      t.ok(ms < 4000, `answered in ${ms} ms while Redis hangs`);
    }
  } finally {
    redis.resume();
  }
  await eventually('the api answers /usage again', async () => ((await request(stack.baseUrl, '/usage', { apiKey })).status === 200 ? true : undefined), { timeoutMs: 5000, intervalMs: 100 });
  t.equal((await request(stack.baseUrl, '/v1/scrape?keyword=lamp', { apiKey })).status, 200, 'searches work again at once');
});

t.test('with MariaDB stopped, authenticated requests fail fast with 503 and recover when it is back', async (t) => {
  t.equal((await request(stack.baseUrl, '/usage', { apiKey })).status, 200);
  await mariadb.stop();
  for (const path of ['/usage', '/requests', '/usage']) {
    const { response, ms } = await timed(path);
    assertError(t, response, 503, 'service_unavailable');
    t.ok(ms < 5000, `${path} answered in ${ms} ms, not a hang`);
  }
  // Once the api's short key cache has lapsed, authentication itself needs the database.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  assertError(t, (await timed('/usage')).response, 503, 'service_unavailable');
  t.equal((await request(stack.accountsInternalUrl, '/readyz')).status, 503, 'accounts reports unready');
  await mariadb.start();
  await eventually('the api answers /usage again', async () => ((await request(stack.baseUrl, '/usage', { apiKey })).status === 200 ? true : undefined), { timeoutMs: 15_000, intervalMs: 200 });
  t.pass('works again once MariaDB is back');
});

// Known gap (issue 15, item 6): under the full suite's load, the 503s of /requests answered during the Redis outages
// sometimes never reach the history (the metered search and item always do): the entry of a route that fails before
// its caller is resolved is not written. Marked todo until fixed, so that it is reported and does not hide the rest.
t.test('the history of requests made during the outages is kept: every failure answered to a known key', async (t) => {
  // The polls that waited for recovery (GET /usage) answered 503 some number of times; the other paths were asked a known number of times.
  const counted = ['/requests', '/v1/scrape', '/v1/item/{itemId}'];
  const failures = (entries: Array<{ status: number; path: string }>) => entries.filter((entry) => entry.status === 503 && counted.includes(entry.path)).map((entry) => entry.path).sort();
  const expected = ['/requests', '/requests', '/requests', '/v1/item/{itemId}', '/v1/scrape'];
  // Polled until all are there or 20 s passed; then compared, so that a failure shows which entries did arrive.
  const deadline = Date.now() + 20_000;
  let found: string[] = [];
  for (;;) {
    found = failures((await request(stack.baseUrl, '/requests?limit=100', { apiKey })).body?.entries ?? []);
    if (found.length >= expected.length || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.strictSame(found, expected, 'Redis stopped: /requests; Redis hung: /requests, a search, an item; MariaDB stopped: /requests');
});
