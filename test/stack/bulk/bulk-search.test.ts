import t from 'tap';
import { bulkCompleteEventSchema, bulkErrorEventSchema, bulkProgressEventSchema, bulkResultEventSchema } from '@comps/shared/contract/bulk-events';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { assertShape } from '../../helpers/contract-assertions.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { postEventStream } from '../../helpers/event-stream.js';
import { eventually, request } from '../../helpers/http-client.js';
import { historyOf, usedOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';

// Lean pages keep it quick; a long upstream deadline lets one keyword outlast the 15 s keep-alive.
const stack = await startTestStack(t, { env: { MARKET_SIM_PAGE_STYLE: 'lean' }, serviceEnv: { api: { MARKET_TIMEOUT_MS: '30000' } } });
const bulk = (apiKey: string | undefined, body: unknown, extra: Parameters<typeof postEventStream>[1] = {}) =>
  postEventStream(`${stack.baseUrl}/api/bulk-search`, { ...(apiKey ? { apiKey } : {}), body, ...extra });

t.test("a bulk search starts the api's parse thread as it begins, for the answers that will come together; the api's metrics show it", async (t) => {
  const { apiKey } = await createWorkspace(stack, { concurrency: 3 });
  const metrics = async () => {
    const text = await (await fetch(`http://127.0.0.1:${stack.ports.apiInternal}/metrics`)).text();
    const figure = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
    return {
      threads: figure(/^comps_parse_threads\{state="starting"\} (\d+)$/m) + figure(/^comps_parse_threads\{state="ready"\} (\d+)$/m),
      pages: figure(/^comps_search_pages_read_total\{thread="parse"\} (\d+)$/m) + figure(/^comps_search_pages_read_total\{thread="main"\} (\d+)$/m),
    };
  };
  // The first search of this file's api: no page read yet, so no thread.
  t.strictSame(await metrics(), { threads: 0, pages: 0 }, 'before');
  const call = await bulk(apiKey, { keywords: ['lamp a sim:slow=3000', 'lamp b sim:slow=3000', 'lamp c sim:slow=3000'], count: 5 });
  await eventually('the first progress event', async () => (call.events.length > 0 ? true : undefined));
  t.strictSame(await metrics(), { threads: 1, pages: 0 }, 'while the answers are on their way: one thread, started before any page came');
  await call.done;
  t.equal(call.events.filter((event) => event.event === 'result').length, 3);
  t.strictSame(await metrics(), { threads: 1, pages: 3 }, 'after: the three pages read');
});

t.test('the event sequence of a bulk search with a failing keyword, and the ledger, usage and history agreeing with it', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const call = await bulk(apiKey, { keywords: ['vintage lamp', 'lamp sim:error', 'sony camera'], count: 5 });
  await call.done;
  t.equal(call.status, 200);
  t.equal(call.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  t.match(call.headers.get('cache-control'), /no-store/);
  t.match(call.headers.get('x-request-id'), REQUEST_ID_PATTERN);
  t.ok(call.headers.get('ratelimit'), 'the RateLimit fields, as on every authenticated answer');

  const { events } = call;
  t.strictSame(events.map((event) => event.id), events.map((_, i) => String(i + 1)), 'ids are the sequence numbers');
  const kinds = events.map((event) => (event.event === 'result' || event.event === 'error' ? 'outcome' : event.event));
  t.strictSame(kinds, ['progress', 'outcome', 'progress', 'outcome', 'progress', 'outcome', 'progress', 'complete'], 'progress, then an outcome and a progress per keyword, complete last');
  t.equal(events.at(-1)?.event, 'complete', 'complete last');
  assertShape(t, bulkProgressEventSchema, events[0]!.payload);
  t.strictSame(events[0]!.payload, { completed: 0, total: 3, succeeded: 0, failed: 0 }, 'progress at the start');
  const progress = events.filter((event) => event.event === 'progress').map((event) => event.payload.completed);
  t.strictSame(progress, [0, 1, 2, 3], 'and after each keyword');
  const results = events.filter((event) => event.event === 'result');
  const errors = events.filter((event) => event.event === 'error');
  t.equal(results.length, 2);
  t.equal(errors.length, 1);
  for (const result of results) {
    assertShape(t, bulkResultEventSchema, result.payload, 'a result event');
    t.equal(result.payload.items.length, 5);
    t.equal(result.payload.pagination.returned, 5);
  }
  assertShape(t, bulkErrorEventSchema, errors[0]!.payload, 'an error event');
  t.match(errors[0]!.payload, { index: 1, keyword: 'lamp sim:error', code: 'upstream_error' });
  const complete = assertShape(t, bulkCompleteEventSchema, events.at(-1)!.payload);
  t.strictSame(complete, { total: 3, succeeded: 2, failed: 1, charged: 2 });
  t.strictSame(results.map((result) => result.payload.index).sort(), [0, 2]);
  const ids = [...results, ...errors].map((event) => event.payload.requestId);
  t.equal(new Set(ids).size, 3, 'each keyword its own request id');
  t.ok(ids.every((id) => REQUEST_ID_PATTERN.test(id) && id !== call.headers.get('x-request-id')));

  t.equal(await usedOf(stack, workspaceId), 2, 'the ledger took what complete.charged says');
  t.equal((await request(stack.baseUrl, '/usage', { apiKey })).body.used, 2, 'and GET /usage');
  const history = (await historyOf(stack, workspaceId, 3)).filter((entry) => entry.path === '/api/bulk-search');
  t.equal(history.length, 3, 'one history entry per keyword');
  t.strictSame(new Set(history.map((entry) => entry.requestId)), new Set(ids));
  for (const entry of history) {
    t.equal(entry.keyword, '[redacted]', 'the search text redacted');
    t.ok(entry.durationMs >= 0);
  }
  t.strictSame(history.map((entry) => [entry.status, entry.charged, entry.resultCount]).sort(), [[200, 1, 5], [200, 1, 5], [502, 0, null]]);
  const listed = await request(stack.baseUrl, '/requests', { apiKey });
  t.equal(listed.body.entries.filter((entry: { path: string; charged: number }) => entry.path === '/api/bulk-search' && entry.charged === 1).length, 2, '/requests agrees');
});

t.test('every bad body and a missing key: the JSON error, no stream', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const cases: Array<[unknown, string]> = [
    [{}, 'keywords'],
    [{ keywords: [] }, 'keywords'],
    [{ keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) }, 'keywords'],
    [{ keywords: ['lamp', ''] }, 'keywords.1'],
    [{ keywords: ['lamp', '   '] }, 'keywords.1'],
    [{ keywords: [7] }, 'keywords.0'],
    [{ keywords: 'lamp' }, 'keywords'],
    [{ keywords: ['lamp'], count: 0 }, 'count'],
    [{ keywords: ['lamp'], count: 201 }, 'count'],
    [{ keywords: ['lamp'], marketSite: 'ebay.com' }, 'marketSite'],
    [{ keywords: ['lamp'], sold: 'yes' }, 'sold'],
    [{ keywords: ['lamp'], minPrice: 10, maxPrice: 5 }, 'minPrice'],
    [{ keywords: ['lamp'], sortOrder: 'cheapest' }, 'sortOrder'],
    [{ keywords: ['lamp'], categoryId: 'shoes' }, 'categoryId'],
    [[], '(root)'],
  ];
  for (const [body, path] of cases) {
    const call = await bulk(apiKey, body);
    t.equal(call.status, 400, `${JSON.stringify(body).slice(0, 50)}: 400`);
    t.equal(call.json?.code, 'invalid_request');
    t.ok(call.json?.details?.some((detail: { path: string }) => detail.path === path), `details name ${path}`);
    t.strictSame(call.events, [], 'no stream');
  }
  const notJson = await bulk(apiKey, undefined, { rawBody: 'keywords=lamp', headers: { 'content-type': 'text/plain' } });
  t.strictSame([notJson.status, notJson.json?.code], [415, 'unsupported_media_type']);
  const tooLarge = await bulk(apiKey, { keywords: ['x'.repeat(70_000)] });
  t.strictSame([tooLarge.status, tooLarge.json?.code], [413, 'payload_too_large']);
  const anonymous = await bulk(undefined, { keywords: ['lamp'] });
  t.strictSame([anonymous.status, anonymous.json?.code], [401, 'unauthorized']);
  t.equal(await usedOf(stack, workspaceId), 0, 'nothing charged');
});

t.test('concurrency 2 with 6 slow keywords: all succeed, in about three rounds; the first event arrives at once', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { concurrency: 2 });
  const keywords = Array.from({ length: 6 }, (_, i) => `lamp ${i} sim:slow=700`);
  const call = await bulk(apiKey, { keywords, count: 5 });
  await call.done;
  const first = call.events[0]!;
  t.equal(first.event, 'progress');
  const results = call.events.filter((event) => event.event === 'result');
  t.equal(results.length, 6, 'all six succeed (none refused for concurrency)');
  const finished = results.map((event) => event.at).sort((a, b) => a - b);
  // Against the first result (700 ms of the marketplace's at least), not the clock: a stream Caddy held back would
  // bring them together, however fast or slow the machine.
  t.ok(first.at < finished[0]! - 300, `the first event came through Caddy after ${first.at.toFixed(0)} ms, the first result after ${finished[0]!.toFixed(0)}: while the keywords ran`);
  // Two at a time: the third and fifth answers end a second and a third round of 700 ms at the earliest.
  t.ok(finished[2]! >= 1400 && finished[4]! >= 2100, `in rounds of two (${finished.map((at) => at.toFixed(0)).join(', ')} ms)`);
  t.ok(finished[5]! >= 2100, `three rounds of 700 ms (${finished[5]!.toFixed(0)} ms in all)`);
  t.equal(await usedOf(stack, workspaceId), 6);
});

t.test('quota running out in the middle: the rest are quota_exhausted, uncharged', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { quota: 3, concurrency: 1 });
  const call = await bulk(apiKey, { keywords: ['a lamp', 'b lamp', 'c lamp', 'd lamp', 'e lamp', 'f lamp'], count: 5 });
  await call.done;
  const outcomes = call.events.filter((event) => event.event === 'result' || event.event === 'error');
  t.strictSame(outcomes.map((event) => event.event), ['result', 'result', 'result', 'error', 'error', 'error']);
  t.ok(outcomes.slice(3).every((event) => event.payload.code === 'quota_exhausted'));
  t.strictSame(call.events.at(-1)!.payload, { total: 6, succeeded: 3, failed: 3, charged: 3 });
  t.equal(await usedOf(stack, workspaceId), 3);
});

t.test('a client that disconnects after the first result: keywords not started never start, those in flight are charged nothing', async (t) => {
  // Four run at once (concurrency 4); the fifth waits for the rate (4 a minute: the request and the
  // three keywords after the first took them) and is still waiting when the client leaves.
  const { workspaceId, apiKey } = await createWorkspace(stack, { concurrency: 4, rate: 4 });
  const controller = new AbortController();
  const keywords = ['quick lamp sim:slow=200', 'slow lamp sim:slow=3000', 'later lamp sim:slow=3000', 'last lamp sim:slow=3000', 'waiting lamp'];
  const call = await bulk(apiKey, { keywords, count: 5 }, { signal: controller.signal, onEvent: (event) => event.event === 'result' && controller.abort() });
  await call.done;
  t.strictSame(call.events.filter((event) => event.event === 'result').map((event) => event.payload.keyword), [keywords[0]], 'the client saw the quick result only');
  await new Promise((resolve) => setTimeout(resolve, 3500));
  // The rule: a keyword is charged only if its result was handed to the connection before it closed.
  t.equal(await usedOf(stack, workspaceId), 1, 'only the keyword that finished before the disconnect is charged');
  const history = await historyOf(stack, workspaceId, 4);
  t.strictSame(
    history.map((entry) => [entry.status, entry.charged]).sort(),
    [[200, 1], [499, 0], [499, 0], [499, 0]],
    'the three in flight were abandoned, uncharged; the one waiting for the rate never started',
  );
  const usage = await accountsClient(stack).usage.get.query({ workspaceId });
  t.equal(usage.remaining, usage.plan.monthlyQuota - 1, 'nothing is left reserved');
});

t.test('a keyword slower than 15 s: a keep-alive comment arrives before its result', async (t) => {
  const { apiKey } = await createWorkspace(stack);
  const call = await bulk(apiKey, { keywords: ['patient lamp sim:slow=16500'], count: 5 });
  await call.done;
  const result = call.events.find((event) => event.event === 'result');
  t.ok(result, 'the result came');
  const keepAlive = call.comments.find((comment) => comment.text.trim() === 'keep-alive');
  t.ok(keepAlive, 'a keep-alive comment came');
  t.ok(keepAlive!.at < result!.at && keepAlive!.at >= 14_000, `at ${keepAlive!.at.toFixed(0)} ms, before the result at ${result!.at.toFixed(0)} ms`);
});

t.test('shutdown of the api ends open streams cleanly: each keyword finished and charged, or abandoned and free', async (t) => {
  // The file's stack, last: its api is stopped and started again.
  const { workspaceId, apiKey } = await createWorkspace(stack, { concurrency: 2 });
  const call = await postEventStream(`http://127.0.0.1:${stack.ports.api}/api/bulk-search`, {
    apiKey,
    body: { keywords: ['quick lamp sim:slow=100', 'long lamp sim:slow=20000', 'longer lamp sim:slow=20000'], count: 5 },
  });
  await eventually('the first result event', async () => (call.events.some((event) => event.event === 'result') ? true : undefined), { timeoutMs: 5000 });
  await stack.processes.api.stop();
  await call.done;
  const complete = call.events.at(-1)!;
  t.equal(complete.event, 'complete', 'the stream ends with complete');
  t.equal(complete.payload.charged, 1);
  t.strictSame(
    call.events.filter((event) => event.event === 'error').map((event) => [event.payload.keyword, event.payload.code]).sort(),
    [['long lamp sim:slow=20000', 'service_unavailable'], ['longer lamp sim:slow=20000', 'service_unavailable']],
    'each abandoned keyword has an error event saying why',
  );
  await stack.processes.api.start();
  t.equal(await usedOf(stack, workspaceId), 1, 'the ledger agrees: only the finished keyword is charged');
});
