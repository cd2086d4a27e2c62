import { Router } from '@koa/router';
import type { WebState } from './web-state.js';

/**
 * A router of the dashboard's pages. Case-sensitive, as the sign-in requirement on `/dashboard` is:
 * `/DASHBOARD/keys` is not a page of ours (a 404 page), rather than a page reached without a session.
 */
export function webRouter(): Router<WebState> {
  return new Router<WebState>({ sensitive: true });
}
