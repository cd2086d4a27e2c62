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

/** For JSON endpoints: 415 for another media type, 413 past 64 KiB, 400 for malformed JSON. */
export function parseJsonBody(): Middleware {
  return async (ctx, next) => {
    if (!ctx.is('application/json')) {
      throw new AppError('unsupported_media_type', 'The request body must be application/json');
    }
    await parse(ctx, next);
  };
}

/** The parsed body, as untrusted input for a route's schema. */
export function jsonBodyOf(ctx: { request: unknown }): unknown {
  return (ctx.request as { body?: unknown }).body;
}
