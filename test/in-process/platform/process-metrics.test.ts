import t from 'tap';
import Koa from 'koa';
import { metricsRoute } from '@comps/shared/http/metrics-route';
import { idleCollectionMetrics, parseThreadMetrics, processMemoryMetrics } from '@comps/shared/http/process-metrics';
import { LayoutWatch } from '@comps/shared/market/layout-watch';
import { createLogger } from '@comps/shared/logging/create-logger';
import { listen } from '@comps/shared/runtime/http-server';

// The memory gauges of /metrics: where a service's resident memory goes, under the names Node exporters use.

const FIGURES = { rss: 157_286_400, heapTotal: 83_886_080, heapUsed: 41_943_040, external: 20_971_520, arrayBuffers: 10_485_760 };

t.test('each figure as a gauge with its help and type, in bytes', async (t) => {
  t.equal(
    processMemoryMetrics(FIGURES),
    [
      '# HELP process_resident_memory_bytes Resident memory of the process, in bytes.',
      '# TYPE process_resident_memory_bytes gauge',
      'process_resident_memory_bytes 157286400',
      '# HELP nodejs_heap_size_total_bytes Size of the V8 heap, in bytes.',
      '# TYPE nodejs_heap_size_total_bytes gauge',
      'nodejs_heap_size_total_bytes 83886080',
      '# HELP nodejs_heap_size_used_bytes Bytes of the V8 heap in use.',
      '# TYPE nodejs_heap_size_used_bytes gauge',
      'nodejs_heap_size_used_bytes 41943040',
      '# HELP nodejs_external_memory_bytes Memory of objects outside the V8 heap that JavaScript holds (buffers among them), in bytes.',
      '# TYPE nodejs_external_memory_bytes gauge',
      'nodejs_external_memory_bytes 20971520',
      '# HELP nodejs_array_buffers_bytes Memory of ArrayBuffers and Buffers, in bytes (part of the external memory).',
      '# TYPE nodejs_array_buffers_bytes gauge',
      'nodejs_array_buffers_bytes 10485760',
      '',
    ].join('\n'),
  );
});

t.test('the idle collections as counters; none from a process that makes none', async (t) => {
  t.equal(
    idleCollectionMetrics({ collections: 3, freedBytes: 251_658_240, pauseSeconds: 0.147 }),
    [
      '# HELP comps_idle_collections_total Garbage collections made once the process had been idle (API_IDLE_GC_MS, JOBS_IDLE_GC_MS).',
      '# TYPE comps_idle_collections_total counter',
      'comps_idle_collections_total 3',
      '# HELP comps_idle_collection_freed_bytes_total Resident memory the idle collections gave back, in bytes.',
      '# TYPE comps_idle_collection_freed_bytes_total counter',
      'comps_idle_collection_freed_bytes_total 251658240',
      '# HELP comps_idle_collection_pause_seconds_total Time the idle collections paused the process, in seconds.',
      '# TYPE comps_idle_collection_pause_seconds_total counter',
      'comps_idle_collection_pause_seconds_total 0.147',
      '',
    ].join('\n'),
  );
  t.equal(idleCollectionMetrics(null), '');
});

t.test('the parse threads by state and the pages by where they were read; none from a process without threads', async (t) => {
  t.equal(
    parseThreadMetrics({ starting: 1, ready: 2, pagesInThreads: 40, pagesOnCallingThread: 3 }),
    [
      '# HELP comps_parse_threads Threads that read search pages: loading their modules, or ready.',
      '# TYPE comps_parse_threads gauge',
      'comps_parse_threads{state="starting"} 1',
      'comps_parse_threads{state="ready"} 2',
      '# HELP comps_search_pages_read_total Search answers handed to a parse thread, or read on the main thread (no thread was ready).',
      '# TYPE comps_search_pages_read_total counter',
      'comps_search_pages_read_total{thread="parse"} 40',
      'comps_search_pages_read_total{thread="main"} 3',
      '',
    ].join('\n'),
  );
  t.equal(parseThreadMetrics(null), '');
});

t.test('GET /metrics: the layout counters, then the memory, the idle collections and the parse threads read at the time of the request', async (t) => {
  const logger = createLogger('test', 'silent');
  const layoutWatch = new LayoutWatch(logger);
  layoutWatch.record('market.de', 'x-card');
  let reads = 0;
  let collections = 0;
  const app = new Koa();
  app.use(
    metricsRoute(
      layoutWatch,
      () => ((reads += 1), { ...FIGURES, rss: FIGURES.rss + reads }),
      () => ((collections += 1), { collections, freedBytes: 1024, pauseSeconds: 0.05 }),
      () => ({ starting: 0, ready: 1, pagesInThreads: collections, pagesOnCallingThread: 0 }),
    ).routes(),
  );
  const server = await listen(app.callback(), 0, '127.0.0.1');
  t.teardown(() => server.close(100));
  for (const [index, expected] of [157_286_401, 157_286_402].entries()) {
    const answer = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    t.equal(answer.status, 200);
    t.equal(answer.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    const text = await answer.text();
    t.match(text, /^comps_layout_unrecognized_total\{site="market\.de"\} 1$/m);
    t.match(text, new RegExp(`^process_resident_memory_bytes ${expected}$`, 'm'), 'read anew for each request');
    t.match(text, /^nodejs_array_buffers_bytes 10485760$/m);
    t.match(text, new RegExp(`^comps_idle_collections_total ${index + 1}$`, 'm'));
    t.match(text, new RegExp(`^comps_search_pages_read_total\\{thread="parse"\\} ${index + 1}$`, 'm'), 'the threads read anew too');
  }
});

t.test('GET /metrics of a process that makes no idle collections and has no parse threads names neither', async (t) => {
  const app = new Koa();
  app.use(metricsRoute(new LayoutWatch(createLogger('test', 'silent')), () => FIGURES, () => null, () => null).routes());
  const server = await listen(app.callback(), 0, '127.0.0.1');
  t.teardown(() => server.close(100));
  const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
  t.match(text, /^process_resident_memory_bytes 157286400$/m);
  t.notMatch(text, /comps_idle_collection/);
  t.notMatch(text, /comps_parse_threads|comps_search_pages/);
});
