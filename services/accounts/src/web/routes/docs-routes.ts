import type { Router } from '@koa/router';
import { frameOf, sendPage } from '../respond.js';
import { docsPage } from '../views/docs-page.js';
import type { WebDeps } from '../web-deps.js';
import type { WebState } from '../web-state.js';
import { webRouter } from '../web-router.js';

/** `/docs`, signed in or not. */
export function docsRoutes(deps: WebDeps): Router<WebState> {
  const router = webRouter();
  router.get('/docs', (ctx) => sendPage(ctx, docsPage(frameOf(ctx, deps))));
  return router;
}
