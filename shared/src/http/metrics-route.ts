import { Router } from '@koa/router';
import type { LayoutWatch } from '../market/layout-watch.js';

/** `GET /metrics` on an internal port (Caddy never routes there): the service's counters, in Prometheus' text format. */
export function metricsRoute(layoutWatch: LayoutWatch): Router {
  const router = new Router();
  router.get('/metrics', (ctx) => {
    ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
    ctx.body = layoutWatch.metrics();
  });
  return router;
}
