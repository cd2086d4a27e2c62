import { Router } from '@koa/router';
import type { OperationDoc } from './api-operations.js';
import { buildOpenApiDocument } from './openapi-document.js';

/** `GET /v1/openapi.json`, no authentication; built once at boot. */
export function openApiRoutes(operations: OperationDoc[]): Router {
  const body = JSON.stringify(buildOpenApiDocument(operations));
  const router = new Router();
  router.get('/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
  return router;
}

/**
 * The document and the routers must name the same operations; a route added without its
 * documentation (or the other way round) stops the api at boot instead of drifting.
 */
export function assertDocumented(routers: Array<{ stack: Array<{ path: string | RegExp; methods: string[] }> }>, operations: OperationDoc[]): void {
  const registered = new Set<string>();
  for (const router of routers) {
    for (const layer of router.stack) {
      for (const method of layer.methods.filter((name) => name !== 'HEAD')) registered.add(`${method} ${String(layer.path)}`);
    }
  }
  const documented = new Set(operations.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`));
  const undocumented = [...registered].filter((route) => !documented.has(route));
  const missing = [...documented].filter((route) => !registered.has(route));
  if (undocumented.length || missing.length) {
    throw new Error(`OpenAPI document out of step with the routes; undocumented: ${undocumented.join(', ') || 'none'}; not routed: ${missing.join(', ') || 'none'}`);
  }
}
