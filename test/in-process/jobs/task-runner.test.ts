import t from 'tap';
import { sql } from 'kysely';
import { createDb } from '@comps/shared/db/create-db';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { newTaskId } from '@comps/shared/ids';
import { createLogger } from '@comps/shared/logging/create-logger';
import type { JobsDatabase } from '../../../services/jobs/src/db/database.js';
import { claimTasks, insertTask } from '../../../services/jobs/src/tasks/task-repository.js';
import { TaskRunner, type TaskHandler, type TaskRunnerOptions } from '../../../services/jobs/src/tasks/task-runner.js';
import { eventually } from '../../helpers/http-client.js';
import { recordedWork } from '../../helpers/recorded-work.js';
import { prepareTestDatabase, TEST_DATABASE_URL } from '../../helpers/test-env.js';

// In-process: runners on the file's own database, with handlers of the test's own.
await prepareTestDatabase();
const db = createDb<JobsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 10, isolation: 'read committed' });
t.teardown(() => db.destroy());
const logger = createLogger('task-runner-test', 'silent');
const options: TaskRunnerOptions = { concurrency: 4, leaseMs: 1000, pollMs: 50, retry: { retries: 2, baseDelayMs: 20, maxDelayMs: 1000, jitter: 0 } };
const runners: TaskRunner[] = [];
t.afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop(1000)));
  await sql`DELETE FROM tasks`.execute(db);
});

function runner(handlers: TaskHandler[], overrides: Partial<TaskRunnerOptions> = {}, work?: { begin(): () => void }): TaskRunner {
  const made = new TaskRunner({ db, logger, now: () => new Date(), random: () => 0, ...(work ? { work } : {}) }, { ...options, ...overrides });
  for (const handler of handlers) made.handle(handler);
  runners.push(made);
  return made;
}

async function addTasks(kind: string, count: number): Promise<void> {
  const now = new Date();
  for (let i = 0; i < count; i += 1) await insertTask(db, { id: newTaskId(), kind, taskKey: `${kind}:${i}`, payload: { n: i }, runAt: now, createdAt: now });
}

const left = async (kind: string) => Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM tasks WHERE kind = ${kind}`.execute(db)).rows[0]!.n);

t.test('two runners share the tasks: each task runs once, and is deleted when done', async (t) => {
  const seen: number[] = [];
  const handler = (): TaskHandler => ({
    kind: 'count',
    run: async (payload) => {
      seen.push((payload as { n: number }).n);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { next: 'done' };
    },
  });
  await addTasks('count', 40);
  const first = runner([handler()]);
  const second = runner([handler()]);
  await Promise.all([first.start(), second.start()]);
  await eventually('every task ran', async () => ((await left('count')) === 0 ? true : undefined));
  t.strictSame([...seen].sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i), 'each of the 40 ran exactly once');
});

t.test('a task is run again at the time its run asks for; a key makes a task exist once', async (t) => {
  const runs: number[] = [];
  await addTasks('again', 1);
  await addTasks('again', 1);
  t.equal(await left('again'), 1, 'the same key twice is one task');
  const made = runner([{ kind: 'again', run: async () => (runs.push(Date.now()), runs.length < 3 ? { next: 'later', runAt: new Date(Date.now() + 150) } : { next: 'done' }) }]);
  await made.start();
  await eventually('three runs', async () => (runs.length === 3 && (await left('again')) === 0 ? true : undefined));
  t.ok(runs[1]! - runs[0]! >= 140 && runs[2]! - runs[1]! >= 140, `about 150 ms apart: ${runs[1]! - runs[0]!}, ${runs[2]! - runs[1]!}`);
});

t.test('a run that throws is tried again with backoff, then given up and kept with its error', async (t) => {
  let runs = 0;
  await addTasks('broken', 1);
  const made = runner([{ kind: 'broken', run: async () => { runs += 1; throw new Error('it is broken'); } }]);
  await made.start();
  const row = await eventually('the task is given up', async () => {
    const found = await db.selectFrom('tasks').selectAll().where('kind', '=', 'broken').executeTakeFirst();
    return found?.failedAt ? found : undefined;
  });
  t.equal(runs, 3, 'the first try and two retries');
  t.match(row, { attempts: 3, lastError: 'it is broken', leaseOwner: null });
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(runs, 3, 'a task given up is not claimed again');
});

t.test('a lapsed lease is taken over: a process that died lets its task go', async (t) => {
  await addTasks('orphan', 1);
  // A process that claimed it for 300 ms and died (never renewed, never finished).
  const now = new Date();
  const [claimed] = await withTransaction(db, (trx) => claimTasks(trx, 'dead-process', ['orphan'], now, new Date(now.getTime() + 300), 1, []));
  t.equal(claimed?.leaseOwner, 'dead-process');
  let ranAt = 0;
  const made = runner([{ kind: 'orphan', run: async () => ((ranAt = Date.now()), { next: 'done' }) }]);
  await made.start();
  await eventually('the orphan ran', async () => (ranAt > 0 ? true : undefined));
  // From the lease's own start (the claim above), not from this runner's, which a slow claim would have moved later.
  t.ok(ranAt - now.getTime() >= 300, `taken over once the lease lapsed (${ranAt - now.getTime()} ms after it was claimed for 300)`);
});

t.test('a long run keeps its lease: the other runner never takes the task while it runs', async (t) => {
  await addTasks('long', 1);
  let runs = 0;
  const long: TaskHandler = { kind: 'long', run: async () => { runs += 1; await new Promise((resolve) => setTimeout(resolve, 2500)); return { next: 'done' }; } };
  await runner([long]).start();
  await eventually('the first runner took it', async () => (runs === 1 ? true : undefined));
  await runner([long]).start();
  await eventually('it is done', async () => ((await left('long')) === 0 ? true : undefined), { timeoutMs: 5000 });
  t.equal(runs, 1, 'run once, though it outlived two leases of 1 s');
});

t.test('periodic work runs once per period across runners, and never twice at once', async (t) => {
  const runs: Array<{ at: number; runner: number }> = [];
  const every = (index: number) => ({ name: 'tick', intervalMs: 300, run: async () => void runs.push({ at: Date.now(), runner: index }) });
  const first = runner([]).every(every(1));
  const second = runner([]).every(every(2));
  await Promise.all([first.start(), second.start()]);
  // Three runs at least (however slow the machine, it gets there), then the gaps between every run so far.
  await eventually('it ran three times', async () => (runs.length >= 3 ? true : undefined));
  const gaps = runs.slice(1).map((run, index) => run.at - runs[index]!.at);
  t.ok(runs.length >= 3, `it runs (${runs.length} times, one per 300 ms at most)`);
  t.ok(gaps.every((gap) => gap >= 290), `never sooner than the period: gaps ${gaps.join(', ')} ms`);
  t.equal(await left('tick'), 1, 'one row for the task, whatever the number of runners');
});

t.test('each run of a task is work for the idle collection from its start to its end; periodic runs are not', async (t) => {
  const events: string[] = [];
  const work = recordedWork(events);
  let finish: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    const slow: TaskHandler = {
      kind: 'slow',
      run: async () => {
        events.push('run');
        resolve();
        await new Promise<void>((done) => {
          finish = done;
        });
        return { next: 'done' };
      },
    };
    void addTasks('slow', 1).then(() => runner([slow], {}, work).every({ name: 'tick', intervalMs: 50, run: async () => void events.push('tick') }).start());
  });
  await started;
  await eventually('a periodic run went by meanwhile', async () => (events.includes('tick') ? true : undefined));
  t.strictSame(events.filter((event) => event !== 'tick'), ['begin', 'run'], 'in flight while it runs; the periodic runs are not counted');
  finish();
  await eventually('the run ended', async () => (events.includes('end') ? true : undefined));
  t.equal(await left('slow'), 0, 'done');
  t.strictSame(events.filter((event) => event !== 'tick'), ['begin', 'run', 'end'], 'ended once, when its run ended');
});
