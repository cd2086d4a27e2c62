import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  requestId: string;
}

/** Carries the request id through every await, so each log line of a request names it. */
export const requestContext = new AsyncLocalStorage<RequestContext>();
