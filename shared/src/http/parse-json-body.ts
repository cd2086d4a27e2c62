import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { LIMITS } from '../contract/limits.js';
import { AppError } from '../errors/app-error.js';

const parse = koaBody({
  json: true,
  jsonStrict: true,
  jsonLimit: LIMITS.jsonBodyBytes,
  urlencoded: false,
  text: false,
  multipart: false,
  parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
});

/** A body whose Content-Encoding (gzip, deflate, br) does not decode: zlib's and brotli's error codes. */
function isUndecodable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_'));
}

/** For JSON endpoints: 415 for another media type (or none), 413 past 64 KiB, 400 for malformed JSON or a body that does not decode. */
export function parseJsonBody(): Middleware {
  return async (ctx, next) => {
    if (!ctx.is('application/json')) {
      throw new AppError('unsupported_media_type', 'The request body must be application/json');
    }
    try {
      await parse(ctx, next);
    } catch (error) {
      if (!isUndecodable(error)) throw error;
      throw new AppError('invalid_request', `The request body does not decode as its Content-Encoding (${ctx.get('content-encoding')}) says`, {
        details: [{ path: '(root)', message: 'must be encoded as Content-Encoding says' }],
        cause: error,
      });
    }
  };
}

/** The parsed body, as untrusted input for a route's schema. */
export function jsonBodyOf(ctx: { request: unknown }): unknown {
  return (ctx.request as { body?: unknown }).body;
}
