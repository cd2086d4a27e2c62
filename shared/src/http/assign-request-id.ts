import type { Middleware } from 'koa';
import { newRequestId } from '../ids.js';
import { requestContext } from '../logging/request-context.js';
import type { BaseState } from './app-state.js';

/** Gives each request a fresh `req_` id, on `X-Request-Id` and on every log line made while it runs. */
export function assignRequestId(): Middleware<BaseState> {
  return (ctx, next) => {
    const requestId = newRequestId();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    return requestContext.run({ requestId }, next);
  };
}
