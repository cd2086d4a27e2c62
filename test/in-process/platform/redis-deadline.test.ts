import { createClient } from '@redis/client';
import t from 'tap';
import { AppError } from '@comps/shared/errors/app-error';
import { callRedis, REDIS_CALL_DEADLINE_MS } from '@comps/shared/redis/redis-errors';
import { TEST_REDIS_URL } from '../../helpers/test-env.js';

// A Redis call's deadline is ours (callRedis). After a stall of the whole process (a machine too busy to run it),
// Node runs its due timers before it reads its sockets: an answer that came in time must still win.

/** Keeps the thread busy for `ms`, as a process the machine does not run: nothing of its own is read meanwhile. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

t.test('an answer that came in time wins over the deadline when the process was stalled past it', async (t) => {
  const client = await createClient({ url: TEST_REDIS_URL }).connect();
  t.teardown(() => client.destroy());
  // Redis answers after 200 ms (an empty list, its block over), while this thread is stalled for longer than the deadline.
  const call = callRedis(() => client.blPop(`test:redis-deadline:${process.pid}:empty`, 0.2));
  await new Promise((resolve) => setImmediate(resolve));
  stall(REDIS_CALL_DEADLINE_MS + 300);
  t.equal(await call, null, 'the answer, not service_unavailable');
});

t.test('no answer by the deadline is service_unavailable', async (t) => {
  const client = await createClient({ url: TEST_REDIS_URL }).connect();
  t.teardown(() => client.destroy());
  const started = performance.now();
  // Redis holds this answer for 3 s, past the deadline.
  const error = await callRedis(() => client.blPop(`test:redis-deadline:${process.pid}:late`, 3)).then(() => null, (caught: unknown) => caught);
  t.ok(error instanceof AppError && error.code === 'service_unavailable', 'service_unavailable');
  const waited = performance.now() - started;
  t.ok(waited >= REDIS_CALL_DEADLINE_MS - 5 && waited < 2900, `failed at the deadline, not at the answer (${Math.round(waited)} ms)`);
});
