import type { Context, Middleware } from 'koa';
import { type HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import { type HistoryWriter } from '@comps/shared/internal/accounts/history-writer';
import { AppError } from '@comps/shared/errors/app-error';
import { clientNetworkOf } from '@comps/shared/http/client-network';
import { toAppError, writeErrorResponse } from '@comps/shared/http/error-response';
import type { Logger } from '@comps/shared/logging/create-logger';
import { jsonBodyOf, parseJsonBody } from '@comps/shared/http/parse-json-body';
import type { FixedWindowLimiter, WindowDecision } from '@comps/shared/redis/fixed-window-limiter';
import { callRedis } from '@comps/shared/redis/redis-errors';
import type { TaskTracker } from '@comps/shared/runtime/task-tracker';
import type { Authenticator } from '../auth/authenticate.js';
import { requestSignal } from './request-signal.js';
import type { ApiRequest, RequestFacts, RouteResult } from './route-result.js';

export interface AuthenticatedRouteDeps {
  authenticator: Authenticator;
  rateLimiter: FixedWindowLimiter;
  history: HistoryWriter;
  /** Aborts when the service stops; requests still running then are abandoned with its reason. */
  stopping: AbortSignal;
  /** Work that outlives a request's handler (the history of a stream), for shutdown to wait for. */
  tasks: TaskTracker;
  logger: Logger;
}

export type RouteHandler = (request: ApiRequest) => Promise<RouteResult>;

/** `/v1/item/:itemId` as the contract writes it: `/v1/item/{itemId}`. */
export function routeTemplate(matchedRoute: unknown, fallback: string): string {
  if (typeof matchedRoute !== 'string') return fallback.slice(0, 100);
  return matchedRoute.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The IETF fields (draft-ietf-httpapi-ratelimit-headers-11) for one window. */
export function rateLimitFields(decision: WindowDecision): { policy: string; state: string } {
  const name = decision.windowSeconds === 60 ? 'minute' : `${decision.windowSeconds}s`;
  return {
    policy: `"${name}";q=${decision.limit};w=${decision.windowSeconds}`,
    state: `"${name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

async function recordAll(records: AsyncIterable<HistoryRecord>, history: HistoryWriter): Promise<void> {
  for await (const record of records) history.add(record);
}

export function errorResult(error: AppError): RouteResult {
  return { status: error.status, body: null, error };
}

/**
 * The one place an authenticated request is turned into its answer, headers and history: the
 * caller is authenticated (failures answer 401 without an entry: there is no workspace to give it
 * to), the workspace's rate is counted, the route runs and returns what happened, and this writes
 * the status, the body, the RateLimit and X-Quota fields, and the history entry.
 */
export interface RouteOptions {
  /** What the history entry says of the request, known even when it fails. */
  describe: (request: Pick<ApiRequest, 'query' | 'body'>) => RequestFacts;
  /** The route takes a JSON body (read after authentication: a caller without a key learns nothing else). */
  json?: boolean;
}

export function authenticatedRoute(deps: AuthenticatedRouteDeps, options: RouteOptions, handler: RouteHandler): Middleware {
  const readJsonBody = options.json ? parseJsonBody() : undefined;
  return async (ctx: Context) => {
    const started = performance.now();
    const caller = await deps.authenticator.authenticate(ctx.get('authorization') || undefined, clientNetworkOf(ctx.ip));
    const { principal } = caller;
    const requestId = ctx.state.requestId as string;
    const { signal, dispose } = requestSignal(ctx, deps.stopping);
    const request: ApiRequest = {
      requestId,
      principal,
      query: ctx.query,
      params: (ctx as { params?: Record<string, string> }).params ?? {},
      headers: ctx.req.headersDistinct,
      body: undefined,
      signal,
    };
    let rate: WindowDecision | undefined;
    let result: RouteResult;
    try {
      const { requests, windowSeconds } = principal.plan.rateLimit;
      rate = await callRedis(() => deps.rateLimiter.consume(principal.workspaceId, requests, windowSeconds));
      // A request without a body has none to refuse as the wrong type: the route's schema says what is missing.
      if (readJsonBody && rate.allowed && (ctx.request.length || ctx.get('transfer-encoding'))) {
        await readJsonBody(ctx, async () => undefined);
        request.body = jsonBodyOf(ctx);
      }
      result = rate.allowed
        ? await handler(request)
        : errorResult(new AppError('rate_limited', `Rate limit of ${requests} requests per ${windowSeconds} s exceeded; retry after ${rate.resetSeconds} s`, { retryAfter: rate.resetSeconds }));
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === 'internal_error') deps.logger.error({ err: error }, 'unexpected error');
      result = errorResult(appError);
    }
    // A streamed answer keeps listening for its caller until the stream ends.
    if (result.stream) ctx.res.once('close', dispose);
    else dispose();

    const quota = result.quota ?? principal.quota;
    if (result.quota) deps.authenticator.noteQuota(caller, result.quota);
    if (rate) {
      const fields = rateLimitFields(rate);
      ctx.set('RateLimit-Policy', fields.policy);
      ctx.set('RateLimit', fields.state);
    }
    ctx.set('X-Quota-Limit', String(quota.limit));
    ctx.set('X-Quota-Remaining', String(quota.remaining));
    for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
    if (result.error) {
      writeErrorResponse(ctx, result.error);
    } else if (result.stream) {
      ctx.status = result.status;
      ctx.type = result.stream.contentType;
      ctx.body = result.stream.body;
    } else {
      ctx.status = result.status;
      ctx.type = 'application/json';
      ctx.body = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
    }

    if (result.laterRecords) {
      deps.tasks.track(recordAll(result.laterRecords, deps.history));
      return;
    }
    const facts = options.describe(request);
    const durationMs = Math.round(performance.now() - started);
    const record: HistoryRecord = result.record
      ? { ...result.record, durationMs }
      : {
          requestId,
          workspaceId: principal.workspaceId,
          apiKeyId: principal.apiKeyId,
          apiKeyPrefix: principal.apiKeyPrefix,
          method: ctx.method,
          path: routeTemplate((ctx as { _matchedRoute?: unknown })._matchedRoute, ctx.path),
          status: ctx.status,
          code: result.error?.code ?? null,
          charged: 0,
          durationMs,
          marketSite: facts.marketSite,
          hasKeyword: facts.hasKeyword,
          resultCount: result.resultCount ?? null,
          jobId: result.jobId ?? null,
        };
    if (!result.recorded) deps.history.add(record);
  };
}

