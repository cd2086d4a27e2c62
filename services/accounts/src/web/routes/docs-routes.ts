import { Router } from '@koa/router';
import { frameOf, sendPage } from '../respond.js';
import { docsPage } from '../views/docs-page.js';
import type { WebDeps } from '../web-deps.js';
import type { WebState } from '../web-state.js';

/** `/docs`, signed in or not. */
export function docsRoutes(deps: WebDeps): Router<WebState> {
  const router = new Router<WebState>();
  router.get('/docs', (ctx) => sendPage(ctx, docsPage(frameOf(ctx, deps))));
  return router;
}
