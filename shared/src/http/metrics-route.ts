import { Router } from '@koa/router';
import type { LayoutWatch } from '../market/layout-watch.js';
import { processMemoryMetrics, type MemoryFigures } from './process-metrics.js';

/**
 * `GET /metrics` on an internal port (Caddy never routes there): the service's counters and its memory, in
 * Prometheus' text format. `memory` reads the process's figures (process.memoryUsage in the services).
 */
export function metricsRoute(layoutWatch: LayoutWatch, memory: () => MemoryFigures): Router {
  const router = new Router();
  router.get('/metrics', (ctx) => {
    ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
    ctx.body = layoutWatch.metrics() + processMemoryMetrics(memory());
  });
  return router;
}
