import { createServer } from 'node:http';
import { sql } from 'kysely';
import { createDb } from '@comps/shared/db/create-db';
import { newEventId } from '@comps/shared/ids';
import type { JobsDatabase } from '../services/jobs/src/db/database.js';
import { cpuMs, log, runBench, startBenchStack, verdict } from './bench-stack.js';

/**
 * `npm run bench:webhooks`: deliveries per second from one jobs process to a local receiver that
 * answers 204 at once. `EVENTS` job.ended events are written as a job's end writes them (one
 * transaction each would; here in one insert, the dispatch is what is measured), each delivered to
 * one endpoint; the clock runs from the insert until the last delivery is recorded as succeeded.
 * The database's row operations (the server's handler counters of rows written, updated and deleted,
 * for the whole server, accounts' included, so run it on a quiet one) are divided by the deliveries made.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? '3000');
const GOAL_PER_SECOND = 200;

async function rowOperations(db: ReturnType<typeof createDb<JobsDatabase>>): Promise<Record<string, number>> {
  const { rows } = await sql<Record<string, string>>`SHOW GLOBAL STATUS WHERE Variable_name IN ('Handler_write', 'Handler_update', 'Handler_delete')`.execute(db);
  // Read by position: the database's camel-casing renames the columns.
  return Object.fromEntries(rows.map((row) => Object.values(row)).map(([name, value]) => [name!.replace('Handler_', ''), Number(value)]));
}

async function main(): Promise<void> {
  let received = 0;
  const receiver = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on('end', () => {
      received += 1;
      outgoing.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  const bench = await startBenchStack('webhooks', { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_DISPATCH_INTERVAL_MS: '100', JOBS_CONCURRENCY: '32', WEBHOOK_ATTEMPTS_IN_FLIGHT: '32' });
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/comps_bench_webhooks';
  const db = createDb<JobsDatabase>({ url: databaseUrl, connectionLimit: 2, isolation: 'read committed' });
  try {
    const headers = { authorization: `Bearer ${bench.apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${bench.stack.baseUrl}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks`, events: ['job.completed'] }) });
    if (created.status !== 201) throw new Error(`registration: ${created.status} ${await created.text()}`);

    const now = new Date();
    const events = Array.from({ length: EVENTS }, (_, index) => ({
      id: newEventId(),
      type: 'job.ended',
      workspaceId: bench.workspaceId,
      subjectId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      payload: JSON.stringify({ jobId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, status: 'completed', stopReason: 'max_pages' }),
      createdAt: now,
    }));
    const rowsBefore = await rowOperations(db);
    const jobsPid = bench.stack.processes.jobs.pid;
    const cpuBefore = cpuMs(jobsPid);
    const started = performance.now();
    for (let index = 0; index < events.length; index += 1000) await db.insertInto('events').values(events.slice(index, index + 1000)).execute();
    for (;;) {
      const [row] = (await sql<{ done: number }>`SELECT COUNT(*) AS done FROM webhook_deliveries WHERE status = 'succeeded'`.execute(db)).rows;
      if (Number(row!.done) >= EVENTS) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuMs(jobsPid) - cpuBefore;
    const rowsAfter = await rowOperations(db);
    const perDelivery = (name: string) => ((rowsAfter[name]! - rowsBefore[name]!) / EVENTS).toFixed(1);
    const rate = EVENTS / seconds;

    log(`webhook deliveries, ${EVENTS} events to one endpoint, one jobs process (JOBS_CONCURRENCY=32, WEBHOOK_ATTEMPTS_IN_FLIGHT=32), receiver answering 204`);
    log(`  all delivered in ${seconds.toFixed(2)} s: ${rate.toFixed(0)} deliveries/s (receiver saw ${received})`);
    log(`  jobs process CPU: ${(cpu / EVENTS).toFixed(2)} ms a delivery`);
    log(`  database rows a delivery (the server's handler counters): written ${perDelivery('write')}, updated ${perDelivery('update')}, deleted ${perDelivery('delete')}`);
    log(`  goal at least ${GOAL_PER_SECOND}/s: ${verdict(rate >= GOAL_PER_SECOND)}`);
  } finally {
    await db.destroy();
    await bench.stop();
    receiver.close();
  }
}

runBench(main);
