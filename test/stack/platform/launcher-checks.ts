import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@redis/client';
import type { Test } from 'tap';
import { request, type HttpResponse } from '../../helpers/http-client.js';
import { untilPermitsHeld } from '../../helpers/permits.js';
import { createWorkspaceWithNpm, isAlive, startNpmStack, type NpmStack, type NpmStartOutput } from '../../helpers/test-stack.js';
import { TEST_REDIS_URL } from '../../helpers/test-env.js';

// Checks shared by the launcher's tests: searches in flight while the stack stops, the stop itself, and the charges
// of those searches read from the next stack through the public API.

const IN_FLIGHT = 5;
const STOP_ORDER = ['caddy', 'api', 'jobs', 'accounts', 'market-sim'];

interface Workspace {
  workspaceId: string;
  apiKey: string;
}

/**
 * Slow searches, each holding its permit (a lease in Redis: it reached the api and is calling the marketplace) before
 * the caller sends its signal, however slowly the machine got them there.
 */
async function searchesInFlight(stack: NpmStack, workspace: Workspace): Promise<Array<Promise<HttpResponse>>> {
  const searches = Array.from({ length: IN_FLIGHT }, (_, index) =>
    request(stack.baseUrl, `/v1/scrape?keyword=${encodeURIComponent(`desk lamp ${index} sim:slow=5000`)}&count=10`, {
      apiKey: workspace.apiKey,
    }),
  );
  const redis = await createClient({ url: TEST_REDIS_URL }).connect();
  try {
    await untilPermitsHeld(redis, stack.redisKeyPrefix, IN_FLIGHT, workspace.workspaceId);
  } finally {
    redis.destroy();
  }
  return searches;
}

/** Waits for npm to exit, then up to 15 s from the signal for every process of the stack to be gone. */
export async function expectStopped(t: Test, stack: NpmStack, pids: Map<string, number>, signalledAt: number) {
  const exit = await stack.exited;
  const deadline = signalledAt + 15_000;
  const alive = () => [...pids].filter(([, pid]) => isAlive(pid)).map(([name]) => name);
  while (alive().length > 0 && Date.now() < deadline) await sleep(100);
  t.strictSame(alive(), [], 'no process of the stack is left 15 s after the signal');
  t.comment(`npm exited ${exit.code ?? exit.signal} ${Date.now() - signalledAt} ms after the signal`);
  return exit;
}

function expectStoppedInOrder(t: Test, output: string) {
  const stopped = [...output.matchAll(/^start: ([\w-]+) (?:exited|was killed)/gm)].map((match) => match[1]);
  t.strictSame(stopped, STOP_ORDER, 'Caddy first, then the api, jobs, accounts and the simulator');
  const took = output.match(/^start: stopped in (\d+) ms/m);
  t.ok(took, 'the launcher reports the stop');
  if (took) t.comment(`stop took ${took[1]} ms`);
}

async function expectSearchesFinished(t: Test, searches: Array<Promise<HttpResponse>>) {
  const answers = await Promise.all(searches);
  t.strictSame(
    answers.map((answer) => answer.status),
    Array(IN_FLIGHT).fill(200),
    'every search in flight finished 200',
  );
}

/** Charged once each and in the history, read through the public API of a stack started again. */
async function expectChargedOnce(t: Test, stack: NpmStack, workspace: Workspace) {
  const usage = await request(stack.baseUrl, '/usage', { apiKey: workspace.apiKey });
  t.equal(usage.status, 200);
  t.equal(usage.body.used, IN_FLIGHT, `the ${IN_FLIGHT} searches are charged once each`);
  const history = await request(stack.baseUrl, '/requests?limit=100', { apiKey: workspace.apiKey });
  const searches = (history.body.entries as Array<{ path: string; status: number; charged: number }>).filter((entry) => entry.path === '/v1/scrape');
  t.strictSame(
    searches.map((entry) => [entry.status, entry.charged]),
    Array(IN_FLIGHT).fill([200, 1]),
    'each has its history entry',
  );
}

/**
 * Each stop is checked twice: at once (answers, order, no process left) and from the next stack, which reads the
 * charges and history of the previous one's searches through the public API.
 */
export interface StopChain {
  /** The workspace whose searches were in flight at the last stop. */
  previous?: Workspace;
}

export async function startAndCheckPrevious(t: Test, chain: StopChain, output: NpmStartOutput = 'pipe'): Promise<NpmStack> {
  const stack = await startNpmStack(t, { output });
  if (chain.previous) await expectChargedOnce(t, stack, chain.previous);
  return stack;
}

export async function stopWithSearchesInFlight(t: Test, chain: StopChain, stack: NpmStack, signal: () => Promise<void> | void) {
  const workspace = await createWorkspaceWithNpm(stack);
  const searches = await searchesInFlight(stack, workspace);
  const pids = stack.pids();
  t.strictSame([...pids.keys()].sort(), ['accounts', 'api', 'caddy', 'jobs', 'launcher', 'market-sim'], 'the launcher, four services, Caddy');
  const signalledAt = Date.now();
  await signal();
  await expectSearchesFinished(t, searches);
  const exit = await expectStopped(t, stack, pids, signalledAt);
  t.equal(exit.code, 0, 'npm start exits 0');
  expectStoppedInOrder(t, stack.output());
  chain.previous = workspace;
}

