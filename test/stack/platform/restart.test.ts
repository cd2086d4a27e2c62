import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { eventually, request, type HttpResponse } from '../../helpers/http-client.js';
import { createWorkspaceWithNpm, isAlive, startNpmStack } from '../../helpers/test-stack.js';

// `npm start` keeps the stack up by itself: a process that crashes is restarted (with a growing wait, logged), while
// Caddy answers in the contract's shape in between; a process that crashes again and again stops the stack; a start
// that fails part way stops what it started.

const CADDY_REQUEST_ID = /^req_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

t.test('a service killed with SIGKILL is restarted and the stack answers again by itself', async (t) => {
  const stack = await startNpmStack(t);
  const workspace = await createWorkspaceWithNpm(stack);
  const api = stack.pids().get('api')!;
  const killedAt = Date.now();
  process.kill(api, 'SIGKILL');

  const answers = new Map<number, number>();
  let unavailable: HttpResponse | undefined;
  for (;;) {
    const answer = await request(stack.baseUrl, `/v1/scrape?keyword=${encodeURIComponent('desk lamp')}&count=10`, { apiKey: workspace.apiKey });
    answers.set(answer.status, (answers.get(answer.status) ?? 0) + 1);
    if (answer.status === 503) unavailable ??= answer;
    if (answer.status === 200) break;
    if (Date.now() - killedAt > 60_000) break;
    await sleep(100);
  }
  t.equal(answers.get(200), 1, 'a search succeeds again without anyone touching the stack');
  t.strictSame([...answers.keys()].filter((status) => status !== 200 && status !== 503), [], 'meanwhile every answer is 503');
  t.comment(`answering again ${Date.now() - killedAt} ms after the kill`);
  t.ok(unavailable, 'a 503 was seen while the api restarted');
  if (unavailable) {
    t.equal(unavailable.body.code, 'service_unavailable', 'Caddy answers 503 service_unavailable while the api restarts');
    t.match(unavailable.headers.get('x-request-id'), CADDY_REQUEST_ID, "with X-Request-Id req_ + Caddy's request id");
    t.equal(unavailable.body.requestId, unavailable.headers.get('x-request-id'));
    t.equal(unavailable.headers.get('retry-after'), '2');
    t.equal(unavailable.body.retryAfter, 2);
  }
  t.match(stack.output(), /^start: api was killed by SIGKILL; restarting in 500 ms/m, 'the crash and the wait are logged');
  // The launcher logs the new process's pid once its own readiness check passes, which can come after a search got
  // through Caddy already (a CI run read the old pid here).
  const restarted = await eventually(
    'the launcher logs the restarted api',
    async () => {
      const pid = stack.pids().get('api');
      return pid !== undefined && pid !== api ? pid : undefined;
    },
    { timeoutMs: 10_000 },
  ).catch(() => stack.pids().get('api'));
  t.not(restarted, api, 'a new api process');
  t.notOk(isAlive(api), 'the old one is gone');

  stack.npm.kill('SIGTERM');
  t.equal((await stack.exited).code, 0, 'stopping afterwards is clean');
});

t.test('a service that crashes again and again stops the stack', async (t) => {
  const stack = await startNpmStack(t);
  const killed: number[] = [];
  for (let crash = 1; crash <= 5; crash += 1) {
    const pid = stack.pids().get('jobs')!;
    killed.push(pid);
    process.kill(pid, 'SIGKILL');
    if (crash < 5) await stack.waitForOutput(new RegExp(`^start: jobs restarted \\(pid (?!${killed.join('|')}\\b)\\d+`, 'm'), 30_000);
  }
  const exit = await stack.exited;
  t.equal(exit.code, 1, 'npm start exits 1');
  const waits = [...stack.output().matchAll(/^start: jobs was killed by SIGKILL; restarting in (\d+) ms/gm)].map((match) => Number(match[1]));
  t.strictSame(waits, [500, 1000, 2000, 4000], 'each restart waits twice as long as the one before');
  t.match(stack.output(), /^start: jobs was killed by SIGKILL: 5 crashes within 60 s: stopping the stack/m, 'says why it stopped');
  const left = [...stack.pids()].filter(([, pid]) => isAlive(pid));
  t.strictSame(left, [], 'nothing of the stack is left');
});

t.test('a start that fails part way stops what it started and says why', async (t) => {
  // The api's port is taken: the simulator and accounts are up by the time the api fails.
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const { port } = taken.address() as { port: number };
  const stack = await startNpmStack(t, { env: { API_PORT: String(port) }, waitUntilUp: false });
  const exit = await stack.exited;
  t.equal(exit.code, 1, 'npm start exits 1');
  const output = stack.output();
  t.match(output, /EADDRINUSE/, "the api's own reason is shown");
  t.match(output, /^start: api exited with code 1 before it was ready; everything it started was stopped/m, 'the launcher says why');
  t.match(output, /^start: accounts exited with code 0[\s\S]*^start: market-sim exited with code 0/m, 'what was up is stopped, in order');
  const started = [...output.matchAll(/^start: ([\w-]+) ready \(pid (\d+)/gm)].map((match) => [match[1], Number(match[2])] as const);
  // jobs starts beside the api (both wait for accounts alone), so it may have been up too.
  const names = started.map(([name]) => name).sort();
  t.ok(['accounts,market-sim', 'accounts,jobs,market-sim'].includes(names.join()), `the simulator and accounts had started, the api never (${names.join(', ')})`);
  t.strictSame(started.filter(([, pid]) => isAlive(pid)), [], 'none is left');
});
