import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { AppError } from '@comps/shared/errors/app-error';
import type { WebContext } from './web-state.js';

const parse = koaBody({
  json: false,
  text: false,
  multipart: false,
  urlencoded: true,
  // Our forms carry a few short fields; anything larger did not come from them.
  formLimit: '16kb',
  parsedMethods: ['POST'] as never,
});

/** POST bodies are our forms: application/x-www-form-urlencoded, small; anything else is refused before a route runs. */
export function parseForms(): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST') return next();
    if (!ctx.is('application/x-www-form-urlencoded')) throw new AppError('unsupported_media_type', 'Not a form');
    await parse(ctx, next);
  };
}

/** One field of the posted form, as a string ('' when missing; the first when repeated). */
export function formField(ctx: WebContext, name: string): string {
  const body = (ctx.request as { body?: Record<string, unknown> }).body;
  const value = body?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** One query parameter as a string ('' when missing; the first when repeated). */
export function queryField(ctx: WebContext, name: string): string {
  const value = ctx.query[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** Every value of a field of the posted form (checkboxes of one name), or of the query on a GET, in the order sent; [] when missing. */
export function fieldValues(ctx: WebContext, name: string): string[] {
  const source = ctx.method === 'POST' ? (ctx.request as { body?: Record<string, unknown> }).body : ctx.query;
  const value = source?.[name];
  return (Array.isArray(value) ? value : [value]).filter((entry): entry is string => typeof entry === 'string');
}
