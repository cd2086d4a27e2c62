import t from 'tap';
import Koa from 'koa';
import { metricsRoute } from '@comps/shared/http/metrics-route';
import { processMemoryMetrics } from '@comps/shared/http/process-metrics';
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

t.test('GET /metrics: the layout counters, then the memory read at the time of the request', async (t) => {
  const logger = createLogger('test', 'silent');
  const layoutWatch = new LayoutWatch(logger);
  layoutWatch.record('market.de', 'x-card');
  let reads = 0;
  const app = new Koa();
  app.use(metricsRoute(layoutWatch, () => ((reads += 1), { ...FIGURES, rss: FIGURES.rss + reads })).routes());
  const server = await listen(app.callback(), 0, '127.0.0.1');
  t.teardown(() => server.close(100));
  for (const expected of [157_286_401, 157_286_402]) {
    const answer = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    t.equal(answer.status, 200);
    t.equal(answer.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    const text = await answer.text();
    t.match(text, /^comps_layout_unrecognized_total\{site="market\.de"\} 1$/m);
    t.match(text, new RegExp(`^process_resident_memory_bytes ${expected}$`, 'm'), 'read anew for each request');
    t.match(text, /^nodejs_array_buffers_bytes 10485760$/m);
  }
});
