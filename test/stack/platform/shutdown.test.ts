import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { freePort } from '@comps/scripts/stack/free-port';
import { serviceEntry, type ServiceName } from '@comps/scripts/stack/launch-stack';
import { SERVICE_NODE_FLAGS, SERVICE_RUNTIME_ENV } from '@comps/scripts/stack/service-runtime';
import { testRedis } from '../../helpers/test-redis.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { isAlive, startTestStack, type TestStack } from '../../helpers/test-stack.js';
import { untilPermitsHeld } from '../../helpers/permits.js';
import { usedOf } from '../../helpers/usage-of.js';
import { withoutTapHooks } from '../../helpers/without-tap-hooks.js';

// Each service stops cleanly on SIGTERM and always exits: a second signal does not cut its shutdown short, a closed
// output pipe does not hold it forever inside process.exit, and it follows the launcher when the launcher dies.

t.test('on SIGTERM every service exits 0, and the api first delivers buffered history', async (t) => {
  // A long flush interval: entries are still buffered when SIGTERM arrives, and must not be lost.
  const stack = await startTestStack(t, { serviceEnv: { api: { HISTORY_FLUSH_INTERVAL_MS: '60000' } } });
  for (const [service, variables] of Object.entries(SERVICE_RUNTIME_ENV) as Array<[ServiceName, Record<string, string>]>) {
    const env = new Set((await readFile(`/proc/${stack.processes[service].pid}/environ`, 'utf8')).split('\0'));
    for (const [name, value] of Object.entries(variables)) t.ok(env.has(`${name}=${value}`), `${service} runs with ${name}=${value}`);
  }
  for (const [service, flags] of Object.entries(SERVICE_NODE_FLAGS) as Array<[ServiceName, string[]]>) {
    const args = (await readFile(`/proc/${stack.processes[service].pid}/cmdline`, 'utf8')).split('\0');
    t.same(args.slice(1, 1 + flags.length), flags, `${service} runs with ${flags.join(' ')}`);
  }
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const ids: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const response = await request(stack.baseUrl, '/usage', { apiKey });
    ids.push(response.headers.get('x-request-id')!);
  }
  t.equal(await stack.processes.api.stop(), 0, 'api exits 0');
  const history = await accountsClient(stack).history.list.query({ workspaceId, limit: 100 });
  t.strictSame(history.entries.map((entry) => entry.requestId).sort(), [...ids].sort(), 'all five entries were written');
  t.equal(await stack.processes.jobs.stop(), 0, 'jobs exits 0');
  t.equal(await stack.processes.accounts.stop(), 0, 'accounts exits 0');
});

t.test('a second SIGTERM during the shutdown does not cut it short: searches in flight finish and are charged', async (t) => {
  const stack = await startTestStack(t);
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const searches = Array.from({ length: 5 }, (_, index) =>
    request(stack.baseUrl, `/v1/scrape?keyword=${encodeURIComponent(`desk lamp ${index} sim:slow=3000`)}&count=10`, { apiKey }),
  );
  // All five reached the api and hold their permits (leases in Redis) before the signal, however slow the machine.
  const redis = await testRedis(t);
  await untilPermitsHeld(redis, stack.redisKeyPrefix, 5, workspaceId);
  const api = stack.processes.api.pid!;
  process.kill(api, 'SIGTERM');
  await sleep(200);
  process.kill(api, 'SIGTERM');
  const answers = await Promise.all(searches);
  t.strictSame(answers.map((answer) => answer.status), [200, 200, 200, 200, 200], 'every search in flight finished 200');
  await eventually('the api process exits', async () => (isAlive(api) ? undefined : true), { timeoutMs: 15_000 });
  t.pass('the api exited');
  t.match(await readLog(stack), /"service":"api","reason":"SIGTERM","msg":"already shutting down"/, 'the second signal was noted, not obeyed');
  t.match(await readLog(stack), /"service":"api","msg":"stopped"/, 'the api ran its whole shutdown');
  t.equal(await usedOf(stack, workspaceId), 5, 'each is charged once, settled before the api exited');
});

function readLog(stack: TestStack): Promise<string> {
  return readFile(stack.logFile, 'utf8');
}

/** Runs one service by hand with the stack's environment, its output on pipes this test holds. */
async function startService(stack: TestStack, name: 'accounts' | 'jobs', ports: Record<string, string>, stdio: 'pipe' | 'ipc-parent') {
  const main = serviceEntry(name);
  // Accounts' own secret (the stack gives it to accounts alone, not in the shared environment).
  const env = { ...stack.env, ...(name === 'accounts' ? { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') } : {}), ...ports };
  if (stdio === 'pipe') return spawn(...withoutTapHooks(process.execPath, [main]), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // A parent that starts the service as the launcher does (with an IPC channel), then does nothing.
  const parent = spawn(
    ...withoutTapHooks(process.execPath, [
      '-e',
      `const c = require('node:child_process').spawn(process.execPath, [${JSON.stringify(main)}], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
       c.channel.unref(); console.log(c.pid); setInterval(() => {}, 1000);`,
    ]),
    { env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return parent;
}

async function waitReady(port: string) {
  await eventually(`the service on port ${port} is ready`, async () => {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      return response.ok ? true : undefined;
    } catch {
      return undefined;
    }
  }, { timeoutMs: 30_000 });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * The stack the last two tests start their own services beside (they leave its processes alone): one for both,
 * made when the first asks, stopped at the end of the file.
 */
let besideStack: Promise<TestStack> | undefined;
const stackBeside = () => (besideStack ??= startTestStack(t));

t.test('a service whose output pipe is gone still exits on SIGTERM (pino wrote to it forever)', async (t) => {
  const stack = await stackBeside();
  for (const name of ['accounts', 'jobs'] as const) {
    const internal = String(await freePort());
    const ports: Record<string, string> =
      name === 'accounts' ? { ACCOUNTS_PORT: String(await freePort()), ACCOUNTS_INTERNAL_PORT: internal } : { JOBS_INTERNAL_PORT: internal };
    const child = await startService(stack, name, ports, 'pipe');
    const exited = exitOf(child);
    await waitReady(internal);
    child.stdout!.destroy();
    child.stderr!.destroy();
    await sleep(100);
    child.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(15_000).then(() => 'still running' as const)]);
    if (code === 'still running') child.kill('SIGKILL');
    t.equal(code, 0, `${name} exits within 15 s, cleanly`);
  }
});

t.test('a service follows its launcher when the launcher is killed', async (t) => {
  const stack = await stackBeside();
  const internal = String(await freePort());
  const parent = await startService(stack, 'accounts', { ACCOUNTS_PORT: String(await freePort()), ACCOUNTS_INTERNAL_PORT: internal }, 'ipc-parent');
  const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
  await waitReady(internal);
  parent.kill('SIGKILL');
  await eventually('accounts exits after its launcher died', async () => (isAlive(pid) ? undefined : true), { timeoutMs: 15_000 }).catch(() => undefined);
  t.notOk(isAlive(pid), 'accounts exited once its launcher was gone');
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});
