import { execFile } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { connect, type AddressInfo } from 'node:net';
import t from 'tap';
import { fullGarbageCollection } from '@comps/shared/runtime/full-garbage-collection';
import { countedAsWork, IdleCollector, type Schedule } from '@comps/shared/runtime/idle-collector';
import { loadNativeHelper } from '@comps/shared/runtime/native-helper';
import { eventually } from '../../helpers/http-client.js';
import { loadedNativeHelper } from '../../helpers/native-helper.js';
import { recordedWork } from '../../helpers/recorded-work.js';
import { withoutTapHooks } from '../../helpers/without-tap-hooks.js';

const requireFrom = createRequire(import.meta.url);

const MB = 1024 * 1024;

/** A schedule the test runs by hand: what is pending, with its delay. */
function manualSchedule() {
  const pending = new Set<{ run: () => void; ms: number }>();
  const schedule: Schedule = (run, ms) => {
    const entry = { run, ms };
    pending.add(entry);
    return () => pending.delete(entry);
  };
  const runAll = () => {
    const due = [...pending];
    pending.clear();
    for (const entry of due) entry.run();
  };
  return { schedule, pending, runAll };
}

/** A collector over a simulated resident size: each collection brings it down to `afterCollection`, and takes 30 ms. */
function collectorWith({ minGrowthBytes = 16 * MB } = {}) {
  const state = { resident: 200 * MB, afterCollection: 140 * MB, collections: 0, clock: 0, idleMoments: [] as Array<{ collections: number; idle: boolean }> };
  const timers = manualSchedule();
  const reports: Array<{ beforeBytes: number; afterBytes: number; pauseMs: number }> = [];
  const collector = new IdleCollector({
    idleMs: 1000,
    minGrowthBytes,
    collect: () => {
      state.collections += 1;
      state.clock += 30;
      state.resident = state.afterCollection;
    },
    onIdle: () => state.idleMoments.push({ collections: state.collections, idle: collector.isIdle }),
    residentBytes: () => state.resident,
    schedule: timers.schedule,
    onCollected: (figures) => reports.push(figures),
    now: () => state.clock,
  });
  return { collector, state, timers, reports };
}

t.test('collects once the last work in flight has ended and the process stayed idle', async (t) => {
  const { collector, state, timers, reports } = collectorWith();
  t.equal(timers.pending.size, 0, 'nothing is scheduled before any work');
  const first = collector.begin();
  const second = collector.begin();
  first();
  t.equal(timers.pending.size, 0, 'nothing while work is still in flight');
  second();
  t.same([...timers.pending].map((entry) => entry.ms), [1000], 'the idle wait starts when the last work ends');
  timers.runAll();
  t.equal(state.collections, 1, 'one collection');
  t.same(reports, [{ beforeBytes: 200 * MB, afterBytes: 140 * MB, pauseMs: 30 }], 'told what it freed, and its pause');
});

t.test('work that starts during the idle wait cancels it; an end called twice counts once', async (t) => {
  const { collector, state, timers } = collectorWith();
  const end = collector.begin();
  end();
  t.equal(timers.pending.size, 1);
  const next = collector.begin();
  t.equal(timers.pending.size, 0, 'the wait is cancelled by new work');
  end();
  t.equal(timers.pending.size, 0, 'a second call of an ended work changes nothing: the other work is still in flight');
  next();
  timers.runAll();
  t.equal(state.collections, 1);
});

t.test('work that starts while the wait is due but before it runs is not collected over', async (t) => {
  const { collector, state, timers } = collectorWith();
  collector.begin()();
  const [due] = [...timers.pending];
  collector.begin();
  // A timer already firing cannot be cancelled: its run must see the work in flight.
  due!.run();
  t.equal(state.collections, 0);
});

t.test('after the first collection, another comes only once the process has grown by the minimum since', async (t) => {
  const { collector, state, timers } = collectorWith({ minGrowthBytes: 16 * MB });
  collector.begin()();
  timers.runAll();
  t.equal(state.collections, 1, 'the first idle moment collects (what the start left is garbage too)');
  state.resident = 140 * MB + 16 * MB - 1;
  collector.begin()();
  timers.runAll();
  t.equal(state.collections, 1, 'grown by less than the minimum: no pause for so little');
  state.resident = 140 * MB + 16 * MB;
  collector.begin()();
  timers.runAll();
  t.equal(state.collections, 2, 'grown by the minimum: collected');
});

t.test('onIdle runs at every idle moment, after the collection when one is made, and not while work is in flight', async (t) => {
  const { collector, state, timers } = collectorWith({ minGrowthBytes: 16 * MB });
  const end = collector.begin();
  t.equal(collector.isIdle, false, 'work in flight');
  end();
  t.equal(collector.isIdle, true);
  timers.runAll();
  state.resident = 140 * MB + 1 * MB;
  collector.begin()();
  timers.runAll();
  t.strictSame(
    state.idleMoments,
    [
      { collections: 1, idle: true },
      { collections: 1, idle: true },
    ],
    'after the first collection; then at a moment too little grown to collect',
  );
  collector.begin()();
  const [due] = [...timers.pending];
  const working = collector.begin();
  // The wait was already due when the work came: its run must see the work in flight.
  due!.run();
  t.equal(state.idleMoments.length, 2, 'no idle moment while work is in flight');
  working();
  collector.close();
  timers.runAll();
  t.equal(state.idleMoments.length, 2, 'none once closed');
});

t.test('its totals count each collection, what it gave back (a collection that gave none back counts 0) and its pause', async (t) => {
  const { collector, state, timers } = collectorWith({ minGrowthBytes: 16 * MB });
  t.same(collector.totals(), { collections: 0, freedBytes: 0, pauseSeconds: 0 }, 'none before the first');
  collector.begin()();
  timers.runAll();
  t.same(collector.totals(), { collections: 1, freedBytes: 60 * MB, pauseSeconds: 0.03 });
  // Grown by the minimum, but the collection finds nothing to give back: the resident size grows meanwhile.
  state.resident = 160 * MB;
  state.afterCollection = 170 * MB;
  collector.begin()();
  timers.runAll();
  t.same(collector.totals(), { collections: 2, freedBytes: 60 * MB, pauseSeconds: 0.06 });
  const totals = collector.totals();
  totals.collections = 99;
  t.equal(collector.totals().collections, 2, 'a copy: the caller cannot change the counts');
});

t.test('a closed collector cancels its wait and schedules nothing more', async (t) => {
  const { collector, state, timers } = collectorWith();
  const end = collector.begin();
  collector.begin()();
  end();
  t.equal(timers.pending.size, 1);
  collector.close();
  t.equal(timers.pending.size, 0, 'the pending wait is cancelled');
  collector.begin()();
  t.equal(timers.pending.size, 0, 'no new wait after close');
  t.equal(state.collections, 0);
});

t.test('an HTTP request is work until its response closes, a streamed one included', async (t) => {
  const events: string[] = [];
  const collector = recordedWork(events);
  let finishStream: () => void = () => undefined;
  const server = createServer(
    countedAsWork((request, response) => {
      response.write('first part');
      // The body goes on after the handler returned, as a CSV or an event stream does.
      finishStream = () => response.end('last part');
    }, collector),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  const body = new Promise<string>((resolve, reject) => {
    httpRequest({ port, host: '127.0.0.1', path: '/' }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        if (text === 'first part') {
          t.same(events, ['begin'], 'in flight while its body streams');
          finishStream();
        }
      });
      response.on('end', () => resolve(text));
    })
      .on('error', reject)
      .end();
  });
  t.equal(await body, 'first partlast part');
  await new Promise((resolve) => setImmediate(resolve));
  t.same(events, ['begin', 'end'], 'ended once, when its response closed');
});

t.test('health checks and metrics scrapes are not work (a check every few seconds would keep the process from ever being idle)', async (t) => {
  const events: string[] = [];
  const server = createServer(countedAsWork((request, response) => response.end(request.url), recordedWork(events)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  for (const path of ['/healthz', '/readyz', '/metrics', '/readyz?verbose=1']) {
    t.equal(await (await fetch(`http://127.0.0.1:${port}${path}`)).text(), path, `${path} is answered`);
  }
  t.same(events, [], 'none of them counted');
  await (await fetch(`http://127.0.0.1:${port}/metricsx`)).text();
  await (await fetch(`http://127.0.0.1:${port}/trpc/jobs.get`)).text();
  await eventually('both ended', async () => (events.length === 4 ? true : undefined));
  t.same(events, ['begin', 'end', 'begin', 'end'], 'any other path is work');
});

t.test('requests on a kept-alive connection leave no listener on it', async (t) => {
  let ended = 0;
  const listeners: number[] = [];
  const server = createServer(
    countedAsWork(
      (request, response) => {
        listeners.push(request.socket.listenerCount('close'));
        response.end('ok');
      },
      { begin: () => () => void (ended += 1) },
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => {
    agent.destroy();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  for (let index = 0; index < 20; index += 1) {
    await new Promise<void>((resolve, reject) => {
      httpRequest({ port, host: '127.0.0.1', path: '/', agent }, (response) => {
        response.resume();
        response.on('end', resolve);
      })
        .on('error', reject)
        .end();
    });
  }
  await eventually('every request ended', async () => (ended === 20 ? true : undefined));
  t.equal(new Set(listeners).size, 1, `the same number of close listeners during each of the 20 requests on one connection (${[...new Set(listeners)].join(', ')})`);
});

t.test('pipelined requests whose connection goes are each ended, the ones never answered included', async (t) => {
  let begun = 0;
  let ended = 0;
  const collector = {
    begin: () => {
      begun += 1;
      return () => {
        ended += 1;
      };
    },
  };
  // Never answers: the second and third requests wait behind the first, their responses not yet on the connection.
  const server = createServer(countedAsWork(() => undefined, collector));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  const client = connect(port, '127.0.0.1');
  await new Promise((resolve) => client.once('connect', resolve));
  client.write('GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\nGET /3 HTTP/1.1\r\nHost: x\r\n\r\n');
  await eventually('the three requests began', async () => (begun === 3 ? true : undefined));
  t.equal(ended, 0, 'none ended while the connection is open');
  client.destroy();
  await eventually('each request ended', async () => (ended === 3 ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(ended, 3, 'once each');
});

t.test("V8's full collection is taken without --expose-gc, and frees what nothing holds", async (t) => {
  t.equal(typeof globalThis.gc, 'undefined', 'this process runs without --expose-gc');
  const collect = fullGarbageCollection();
  t.equal(typeof globalThis.gc, 'undefined', 'the global stays without gc');
  let held: object | null = { page: 'x'.repeat(1000) };
  const weak = new WeakRef(held);
  held = null;
  // A WeakRef's target stays alive until the end of the job that made it.
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  t.equal(weak.deref(), undefined, 'collected');
});

/**
 * Run in a process of its own, with glibc's defaults but for its mapping threshold, set above the
 * pages' size so that they are served from its heap, as in a process that has read pages (glibc raises
 * the threshold to the largest block it unmapped; relying on that made the check depend on when V8
 * freed a first page, which under load came too late in 2 of 25 runs). Any other MALLOC_* variable, a
 * tunable or a preloaded allocator would change what is measured.
 */
const TRIM_CHECK = `
import { fullGarbageCollection } from ${JSON.stringify(pathToFileURL(requireFrom.resolve('@comps/shared/runtime/full-garbage-collection')).href)};
import { loadNativeHelper } from ${JSON.stringify(pathToFileURL(requireFrom.resolve('@comps/shared/runtime/native-helper')).href)};
const collect = fullGarbageCollection();
const native = loadNativeHelper();
const source = Buffer.alloc(1 << 20, 120);
// Forty-eight 1 MB pages (external strings: glibc's memory), each followed by a small block that stays.
let pages = [];
const pins = [];
for (let index = 0; index < 48; index += 1) {
  pages.push(source.toString('latin1'));
  pins.push(Buffer.allocUnsafeSlow(4096));
}
pages = null;
await new Promise((next) => setImmediate(next));
collect();
const collected = process.memoryUsage.rss();
const released = native.mallocTrim();
const trimmed = process.memoryUsage.rss();
process.stdout.write(JSON.stringify({ collected, trimmed, released, pins: pins.length }));
`;

t.test("the native helper gives back the free pages inside glibc's heap, which a collection alone does not", async (t) => {
  if (!loadedNativeHelper(t)) return;
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(MALLOC_|GLIBC_TUNABLES$|LD_PRELOAD$)/.test(name))), MALLOC_MMAP_THRESHOLD_: String(4 * MB) };
  const { stdout } = await promisify(execFile)(...withoutTapHooks(process.execPath, ['--input-type=module', '-e', TRIM_CHECK]), { env });
  const figures = JSON.parse(stdout) as { collected: number; trimmed: number; released: boolean; pins: number };
  t.equal(figures.released, true, 'memory was given back');
  t.ok(figures.collected - figures.trimmed >= 32 * MB, `at least 32 of the 48 MB freed inside the heap are given back (${Math.round((figures.collected - figures.trimmed) / MB)} MB)`);
  t.equal(figures.pins, 48, 'the blocks that pinned the heap are still there');
});

/**
 * Run in a process of its own: a load that grows V8's young generation to its most (short-lived
 * objects, allocated fast) as work in flight, V8's full collection at its end, then the idle
 * collection once the work has ended (idle-collection.ts, as the services make it). What each leaves
 * of the young generation, and of the objects still held.
 */
const YOUNG_GENERATION_CHECK = `
import { getHeapSpaceStatistics } from 'node:v8';
import { fullGarbageCollection } from ${JSON.stringify(pathToFileURL(requireFrom.resolve('@comps/shared/runtime/full-garbage-collection')).href)};
import { idleCollection } from ${JSON.stringify(pathToFileURL(requireFrom.resolve('@comps/shared/runtime/idle-collection')).href)};
import { loadServiceNativeHelper } from ${JSON.stringify(pathToFileURL(requireFrom.resolve('@comps/shared/runtime/native-helper')).href)};
const warnings = [];
const logger = { warn: (fields, message) => warnings.push(message), debug: () => undefined };
const collector = idleCollection(20, logger, loadServiceNativeHelper(logger));
const youngBytes = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
const endWork = collector.begin();
const held = [];
for (let round = 0; round < 30; round += 1) {
  const batch = [];
  for (let index = 0; index < 200000; index += 1) batch.push({ index, text: 'x' + index });
  if (round % 10 === 0) held.push(batch);
}
const loaded = youngBytes();
fullGarbageCollection()();
const collected = youngBytes();
endWork();
// The idle moment comes 20 ms after the work ends; on a loaded machine, later: polled for up to 10 s.
for (let waited = 0; collector.totals().collections === 0 && waited < 10000; waited += 50) await new Promise((next) => setTimeout(next, 50));
const idle = youngBytes();
collector.close();
process.stdout.write(JSON.stringify({ loaded, collected, idle, collections: collector.totals().collections, warnings, held: held.reduce((sum, batch) => sum + batch.length, 0) }));
`;

t.test("the idle collection shrinks the young generation a load grew, which V8's full collection leaves as it is", async (t) => {
  if (!loadedNativeHelper(t)) return;
  // The young generation's cap is set here (by default it follows the machine's memory); its least is V8's (Node 20's), 1 MB.
  const { stdout } = await promisify(execFile)(...withoutTapHooks(process.execPath, ['--max-semi-space-size=16', '--input-type=module', '-e', YOUNG_GENERATION_CHECK]));
  const figures = JSON.parse(stdout) as { loaded: number; collected: number; idle: number; collections: number; warnings: string[]; held: number };
  t.strictSame(figures.warnings, [], 'the native helper was loaded');
  t.equal(figures.loaded, 2 * 16 * MB, 'the load grew the young generation to its cap (two semi-spaces of 16 MB)');
  t.equal(figures.collected, figures.loaded, 'a full collection right after the load leaves it so');
  t.equal(figures.collections, 1, 'the idle collection ran once the work had ended');
  t.equal(figures.idle, 1 * MB, 'and shrank it to its least');
  t.equal(figures.held, 600_000, 'what is still held stays');
});

t.test('a helper that cannot be loaded is reported, with its path', async (t) => {
  const missing = loadNativeHelper('/nonexistent/native-helper.node');
  t.ok('unavailable' in missing && missing.unavailable.startsWith('/nonexistent/native-helper.node could not be loaded ('), 'unavailable, and why');
});
