import type { ParameterizedContext } from 'koa';
import type { BaseState } from './app-state.js';
import type { ErrorBody } from '../contract/error-body.js';
import type { ErrorCode } from '../contract/error-codes.js';
import { AppError } from '../errors/app-error.js';

/** Seconds to suggest when a 429 or 503 did not compute its own (the contract wants one on each). */
const DEFAULT_RETRY_AFTER: Partial<Record<ErrorCode, number>> = {
  rate_limited: 1,
  concurrency_limited: 1,
  upstream_rate_limited: 1,
  service_unavailable: 2,
  data_gate_closed: 60,
  idempotency_in_progress: 1,
};

function statusFromHttpError(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** Maps anything thrown to the contract; what is not ours becomes `internal_error` with no internals. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  switch (statusFromHttpError(error)) {
    case 400:
      return new AppError('invalid_request', 'The request body is not valid JSON', {
        details: [{ path: '(root)', message: 'must be a JSON object' }],
        cause: error,
      });
    case 413:
      return new AppError('payload_too_large', 'The request body is larger than 64 KiB', { cause: error });
    case 415:
      return new AppError('unsupported_media_type', 'The request body must be application/json', { cause: error });
    default:
      return new AppError('internal_error', 'Internal error', { cause: error });
  }
}

export function buildErrorBody(error: AppError, requestId: string): ErrorBody {
  const retryAfter = error.retryAfter ?? DEFAULT_RETRY_AFTER[error.code];
  return {
    error: error.message,
    code: error.code,
    requestId,
    ...(retryAfter === undefined ? {} : { retryAfter }),
    ...(error.details === undefined ? {} : { details: error.details }),
    ...(error.jobId === undefined ? {} : { jobId: error.jobId }),
  };
}

/** What an error answer is on the wire: its status, the headers the contract asks for, and the body. */
export function errorAnswer(error: AppError, requestId: string): { status: number; headers: Record<string, string>; body: ErrorBody } {
  const body = buildErrorBody(error, requestId);
  const headers: Record<string, string> = {};
  if (body.retryAfter !== undefined) headers['Retry-After'] = String(body.retryAfter);
  // RFC 9110: a 401 names the scheme that would work, a 405 the methods that would.
  if (error.code === 'unauthorized') headers['WWW-Authenticate'] = 'Bearer realm="api"';
  if (error.allow) headers.Allow = error.allow.join(', ');
  return { status: error.status, headers, body };
}

/** Answers an error through Koa (the middleware that catches what no route answered itself). */
export function writeErrorResponse(ctx: ParameterizedContext<BaseState>, error: AppError): ErrorBody {
  const answer = errorAnswer(error, ctx.state.requestId);
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.body = answer.body;
  ctx.state.errorCode = error.code;
  return answer.body;
}
