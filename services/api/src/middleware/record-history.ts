import type { Middleware } from 'koa';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import type { ApiState } from '../http/api-state.js';
import type { HistoryWriter } from '../history/history-writer.js';

/** `/v1/item/:itemId` as the contract writes it: `/v1/item/{itemId}`. */
export function routeTemplate(matchedRoute: unknown, fallback: string): string {
  if (typeof matchedRoute !== 'string') return fallback.slice(0, 100);
  return matchedRoute.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** One history entry per authenticated request, whatever its outcome, written after the answer. */
export function recordHistory(writer: HistoryWriter): Middleware<ApiState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const { principal, history = {} } = ctx.state;
      if (principal) {
        writer.add({
          requestId: ctx.state.requestId,
          workspaceId: principal.workspaceId,
          apiKeyId: principal.apiKeyId,
          apiKeyPrefix: principal.apiKeyPrefix,
          method: ctx.method,
          path: routeTemplate((ctx as { _matchedRoute?: unknown })._matchedRoute, ctx.path),
          status: ctx.status,
          code: (ctx.state.errorCode ?? null) as ErrorCode | null,
          charged: history.charged ? 1 : 0,
          durationMs: Math.round(performance.now() - started),
          marketSite: history.marketSite ?? null,
          hasKeyword: history.hasKeyword ?? false,
          resultCount: history.resultCount ?? null,
          jobId: history.jobId ?? null,
        });
      }
    }
  };
}
