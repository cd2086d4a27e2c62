import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { ErrorCode } from '../contract/error-codes.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { ZodError } from 'zod';
import { AppError } from '../errors/app-error.js';
import { detailsFromZod } from '../errors/zod-details.js';
import type { Logger } from '../logging/create-logger.js';

/** The tRPC code closest to each HTTP status our errors can have. */
const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** For errors tRPC raises itself (an input its schema refuses, a procedure that does not exist). */
const APP_CODE_BY_TRPC_CODE: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  BAD_REQUEST: 'invalid_request',
  PARSE_ERROR: 'invalid_request',
  NOT_FOUND: 'not_found',
  SERVICE_UNAVAILABLE: 'service_unavailable',
  INTERNAL_SERVER_ERROR: 'internal_error',
};

/**
 * tRPC for a service's internal port. Errors carry our contract code across the boundary
 * (`data.appCode`, with `retryAfter` and `jobId` where they have one), so a caller rethrows the same
 * AppError (see callInternal) instead of guessing from a tRPC code. A database that cannot be reached
 * is `service_unavailable`; anything unexpected is logged here and leaves as "Internal error".
 */
export function createInternalTrpc<Context extends { logger: Logger }>() {
  const t = initTRPC.context<Context>().create({
    isDev: false,
    errorFormatter({ shape, error }) {
      const appError = error.cause instanceof AppError ? error.cause : undefined;
      const appCode: ErrorCode | null = appError?.code ?? APP_CODE_BY_TRPC_CODE[error.code] ?? null;
      // Input the procedure's schema refused: what was wrong travels as details, not as zod's JSON in the message.
      const invalidInput = !appError && error.cause instanceof ZodError ? error.cause : undefined;
      const details = appError?.details ?? (invalidInput ? detailsFromZod(invalidInput) : null);
      return {
        ...shape,
        message: appCode === 'internal_error' ? 'Internal error' : invalidInput ? 'Invalid request' : shape.message,
        data: { ...shape.data, appCode, retryAfter: appError?.retryAfter ?? null, jobId: appError?.jobId ?? null, details },
      };
    },
  });

  const procedure = t.procedure.use(async ({ next, ctx, path }) => {
    const result = await next();
    if (result.ok) return result;
    const cause = result.error.cause ?? result.error;
    if (cause instanceof AppError) {
      throw new TRPCError({ code: TRPC_CODE_BY_STATUS[cause.status] ?? 'INTERNAL_SERVER_ERROR', message: cause.message, cause });
    }
    if (isDatabaseUnavailable(cause)) {
      const unavailable = new AppError('service_unavailable', 'A database is unavailable; try again shortly', { retryAfter: 2, cause });
      throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: unavailable.message, cause: unavailable });
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR') (ctx as { logger: Logger }).logger.error({ err: cause, path }, 'procedure failed');
    return result;
  });

  return { router: t.router, procedure, createCallerFactory: t.createCallerFactory };
}
