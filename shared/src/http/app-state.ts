import type { ErrorCode } from '../contract/error-codes.js';

/** What every service's middleware keeps on `ctx.state`. */
export interface BaseState {
  requestId: string;
  /** Set by the error handler: the contract code of a failed request. */
  errorCode?: ErrorCode;
  /** Set by a route that wrote its own answer and saw it not received whole: the access log says 499. */
  notReceived?: boolean;
}
