import type { Middleware } from 'koa';
import type { AnyRouter } from '@trpc/server';
import { createHTTPHandler, type CreateHTTPContextOptions } from '@trpc/server/adapters/standalone';

export const TRPC_BASE_PATH = '/trpc/';

/** Hands `/trpc/*` to tRPC's Node handler; Koa steps aside for the response. */
export function mountTrpc<TRouter extends AnyRouter>(
  router: TRouter,
  createContext: (options: CreateHTTPContextOptions) => ReturnType<NonNullable<Parameters<typeof createHTTPHandler<TRouter>>[0]['createContext']>>,
): Middleware {
  // Callers send queries as POST too (see createInternalClient): their inputs may be large.
  const handler = createHTTPHandler({ router, createContext, basePath: TRPC_BASE_PATH, allowMethodOverride: true });
  return async (ctx, next) => {
    if (!ctx.path.startsWith(TRPC_BASE_PATH)) return next();
    ctx.respond = false;
    // Koa starts every response at 404, and tRPC sets its own status only over a 200: without this,
    // every answer (a success too) would leave as a 404, and the access log would say so.
    ctx.res.statusCode = 200;
    await new Promise<void>((resolve) => {
      ctx.res.once('close', resolve);
      handler(ctx.req, ctx.res);
    });
  };
}
