import type { ParameterizedContext } from 'koa';
import type { BaseState } from '@comps/shared/http/app-state';
import type { ResolvedSession } from '../sessions/session-service.js';

/** What the dashboard's middleware keeps on `ctx.state`. */
export interface WebState extends BaseState {
  /** The signed-in user, when the request carried a live session. */
  session?: ResolvedSession;
}

export type WebContext = ParameterizedContext<WebState>;
