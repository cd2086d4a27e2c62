import { Router } from '@koa/router';
import type { LayoutWatch } from '../market/layout-watch.js';
import type { IdleCollectionTotals } from '../runtime/idle-collector.js';
import type { ParseThreadFigures } from '../market/parse-threads.js';
import { idleCollectionMetrics, parseThreadMetrics, processMemoryMetrics, type MemoryFigures } from './process-metrics.js';

/**
 * `GET /metrics` on an internal port (Caddy never routes there): the service's counters, its memory, its
 * idle collections and its parse threads, in Prometheus' text format. `memory` reads the process's figures
 * (process.memoryUsage in the services); `idleCollections` what its idle collector did (null: it makes none);
 * `parseThreads` its threads and where its pages were read (null: it reads them on its main thread).
 */
export function metricsRoute(
  layoutWatch: LayoutWatch,
  memory: () => MemoryFigures,
  idleCollections: () => IdleCollectionTotals | null,
  parseThreads: () => ParseThreadFigures | null,
): Router {
  const router = new Router();
  router.get('/metrics', (ctx) => {
    ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
    ctx.body = layoutWatch.metrics() + processMemoryMetrics(memory()) + idleCollectionMetrics(idleCollections()) + parseThreadMetrics(parseThreads());
  });
  return router;
}
