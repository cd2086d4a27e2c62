import t from 'tap';
import { createClient } from '@redis/client';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { dedicatedRedis } from '../../helpers/dedicated-servers.js';
import { eventually, request } from '../../helpers/http-client.js';
import { historyOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';

// Redis as operators run it (append-only file), restarted with its data while charges wait in the
// settlement outbox: the settler batches every 8 s here, so the charges are still unsettled.
const redis = await dedicatedRedis({ persistent: true });
t.teardown(() => redis.destroy());
const stack = await startTestStack(t, { env: { REDIS_URL: redis.url, SETTLEMENT_BATCH_INTERVAL_MS: '8000' } });
const accounts = accountsClient(stack);

t.test('a restart of Redis with its data loses no charge and no idempotency record', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { concurrency: 20 });
  // The first charge is settled at once; the settler then waits before its next batch.
  t.equal((await request(stack.baseUrl, '/v1/scrape?keyword=warm+up&count=5', { apiKey })).status, 200);
  await eventually('the warm-up charge is settled', async () => ((await accounts.usage.get.query({ workspaceId })).used === 1 ? true : undefined));

  const keyed = { apiKey, headers: { 'idempotency-key': 'before-restart' } };
  const first = await request(stack.baseUrl, '/v1/scrape?keyword=lamp&count=5', keyed);
  t.equal(first.status, 200);
  const searches = await Promise.all(Array.from({ length: 9 }, (_, i) => request(stack.baseUrl, `/v1/scrape?keyword=lamp+${i}&count=5`, { apiKey })));
  t.strictSame(searches.map((response) => response.status), Array(9).fill(200), 'ten answered successes');
  const before = await accounts.usage.get.query({ workspaceId });
  t.ok(before.used < 11, `charges still unsettled before the restart (used ${before.used})`);

  const probe = await createClient({ url: redis.url }).connect();
  const pending = await probe.xLen(`${stack.redisKeyPrefix}settlements`);
  probe.destroy();
  t.ok(pending >= 1, `${pending} charges wait in the outbox`);

  await redis.stop();
  await redis.start();

  const replay = await eventually('the keyed search answers again after the restart', async () => {
    const response = await request(stack.baseUrl, '/v1/scrape?keyword=lamp&count=5', keyed);
    return response.status === 200 ? response : undefined;
  }, { timeoutMs: 10_000, intervalMs: 200 });
  t.equal(replay.headers.get('idempotent-replayed'), 'true', 'the key replays after the restart');
  t.equal(replay.text, first.text, 'the same bytes');

  const settled = await eventually('all eleven charges are settled', async () => {
    const usage = await accounts.usage.get.query({ workspaceId });
    return usage.used + usage.remaining === usage.plan.monthlyQuota && usage.used >= 11 ? usage : undefined;
  }, { timeoutMs: 30_000, intervalMs: 250 });
  t.equal(settled.used, 11, 'every answered success charged, once (the replay is free)');
  const history = await historyOf(stack, workspaceId, 12);
  t.equal(history.filter((entry) => entry.charged === 1).length, 11, 'the history agrees');
});

t.test('replays are stored compressed', async (t) => {
  const { apiKey } = await createWorkspace(stack);
  const answer = await request(stack.baseUrl, '/v1/scrape?keyword=camera&count=200', { apiKey, headers: { 'idempotency-key': 'big' } });
  t.equal(answer.status, 200);
  const probe = await createClient({ url: redis.url }).connect();
  try {
    const keys = await probe.keys(`${stack.redisKeyPrefix}idempotency:*`);
    const sizes = await Promise.all(keys.map((key) => probe.hStrLen(key, 'body')));
    const stored = Math.max(...sizes.map(Number));
    t.ok(stored > 0 && stored * 4 < answer.text.length, `${answer.text.length} bytes kept as ${stored}`);
  } finally {
    probe.destroy();
  }
});
