import type { Middleware, ParameterizedContext } from 'koa';
import { AppError } from '@comps/shared/errors/app-error';
import { parseOrThrow } from '@comps/shared/errors/zod-details';
import type { BaseState } from '@comps/shared/http/app-state';
import { clientNetworkOf } from '@comps/shared/http/client-network';
import { errorAnswer, toAppError } from '@comps/shared/http/error-response';
import { jsonBodyOf, parseJsonBody } from '@comps/shared/http/parse-json-body';
import { newRequestId } from '@comps/shared/ids';
import type { HistorySink } from '@comps/shared/internal/accounts/history-record';
import type { QuotaSnapshot } from '@comps/shared/internal/accounts/quota';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { MarketCall, MarketValue } from '@comps/shared/market/market-call';
import type { AdmissionTicket, Meter } from '@comps/shared/metering/meter';
import { meterTogether } from '@comps/shared/metering/meter-together';
import type { FixedWindowLimiter, WindowDecision } from '@comps/shared/redis/fixed-window-limiter';
import { callRedis } from '@comps/shared/redis/redis-errors';
import { keyHashOf, type Authenticator, type Caller } from '../auth/authenticate.js';
import type { CallerlessRecord, HistoryAwaitingCaller } from '../history/history-awaiting-caller.js';
import { idempotencyKeyOf } from '../idempotency/idempotency-key.js';
import { requestFactsOf } from './request-facts.js';
import { requestSignal } from './request-signal.js';
import { NO_STORE, type ApiKeyRoute, type PublicRoute, type RouteDefinition, type RouteRequest, type RouteResult } from './route-definition.js';
import { sendAnswer, type WireAnswer } from './send-answer.js';

export interface ServeDeps {
  authenticator: Authenticator;
  rateLimiter: FixedWindowLimiter;
  meter: Meter;
  history: HistorySink;
  /** Entries of requests whose authentication itself could not be completed (an outage), recorded once the key is looked up. */
  historyAwaitingCaller: Pick<HistoryAwaitingCaller, 'add'>;
  /** Aborts when the service stops; requests still running then are abandoned with its reason. */
  stopping: AbortSignal;
  logger: Logger;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The IETF fields (draft-ietf-httpapi-ratelimit-headers-11) for one window. */
export function rateLimitFields(decision: WindowDecision): { 'RateLimit-Policy': string; RateLimit: string } {
  const name = decision.windowSeconds === 60 ? 'minute' : `${decision.windowSeconds}s`;
  return {
    'RateLimit-Policy': `"${name}";q=${decision.limit};w=${decision.windowSeconds}`,
    RateLimit: `"${name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

function quotaFields(quota: QuotaSnapshot): Record<string, string> {
  return { 'X-Quota-Limit': String(quota.limit), 'X-Quota-Remaining': String(quota.remaining) };
}

/** A result as it goes on the wire (the result of a call already sent has nothing left to write). */
function wireAnswerOf(result: Exclude<RouteResult, { kind: 'sent' }>, requestId: string, common: Record<string, string>): WireAnswer {
  switch (result.kind) {
    case 'json': {
      const body = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
      return { status: result.status, headers: { ...common, ...result.headers, 'Content-Type': JSON_TYPE, 'Content-Length': String(Buffer.byteLength(body)) }, body };
    }
    case 'stream':
      return { status: result.status, headers: { ...common, ...result.headers, 'Content-Type': result.contentType }, body: result.write };
    case 'error': {
      const answer = errorAnswer(result.error, requestId);
      const body = JSON.stringify(answer.body);
      return { status: answer.status, headers: { ...common, ...answer.headers, 'Content-Type': JSON_TYPE, 'Content-Length': String(Buffer.byteLength(body)) }, body };
    }
  }
}

/** How many listings an answer holds (an item's details count as one), for an idempotent replay's history entry. */
function countOf(value: MarketValue<MarketCall>): number {
  return 'items' in value ? value.items.length : 1;
}

function statusOf(result: Exclude<RouteResult, { kind: 'sent' }>): number {
  return result.kind === 'error' ? result.error.status : result.status;
}

/**
 * The one place a request becomes its answer. For an API-key route, in order: the key (401, or 429
 * for an address that failed too often), the workspace's rate (429), the route's input (400 with
 * details, 413, 415, the Idempotency-Key), then the route, whose result this writes with the
 * RateLimit and X-Quota fields, and the request's history entry (a metered call's entry is the
 * meter's). The answer goes straight to the socket, and whether it was received whole is known:
 * a request whose caller left before it is logged and recorded as 499.
 */
export function serveRoute(route: RouteDefinition, deps: ServeDeps): Middleware<BaseState> {
  return route.access === 'public' ? servePublic(route, deps) : serveApiKey(route, deps);
}

function servePublic(route: PublicRoute, deps: ServeDeps): Middleware<BaseState> {
  return async (ctx) => {
    ctx.respond = false;
    const result = route.handle();
    if (result.kind === 'sent') return;
    await deliver(ctx, result, {}, deps.logger);
  };
}

/** Writes the result; notes on the context what the access log says of it. */
async function deliver(ctx: ParameterizedContext<BaseState>, result: Exclude<RouteResult, { kind: 'sent' }>, common: Record<string, string>, logger: Logger): Promise<boolean> {
  ctx.status = statusOf(result);
  if (result.kind === 'error') ctx.state.errorCode = result.error.code;
  const received = await sendAnswer(ctx.res, wireAnswerOf(result, ctx.state.requestId, common), (error) =>
    logger.error({ err: error }, 'a streamed answer broke off'),
  );
  if (!received) ctx.state.notReceived = true;
  return received;
}

function serveApiKey(route: ApiKeyRoute<any, any, any>, deps: ServeDeps): Middleware<BaseState> {
  const readJsonBody = route.body ? parseJsonBody() : undefined;
  return async (ctx) => {
    ctx.respond = false;
    const started = performance.now();
    const requestId = ctx.state.requestId;
    const { signal, dispose } = requestSignal(ctx, deps.stopping);
    let caller: Caller | undefined;
    let rate: WindowDecision | undefined;
    // The first call's admission, made with the rate check (one round trip): taken by that call, or given back at the end.
    let ticket: AdmissionTicket | null = null;
    let rawBody: unknown;
    let metered = false;
    const commonHeaders = (quota: QuotaSnapshot | null | undefined): Record<string, string> => ({
      ...(rate ? rateLimitFields(rate) : {}),
      ...(caller ? quotaFields(quota ?? caller.principal.quota) : {}),
    });
    const answer = (result: Exclude<RouteResult, { kind: 'sent' }>): Promise<boolean> => {
      const quota = result.kind === 'stream' ? undefined : result.quota;
      if (caller && quota) deps.authenticator.noteQuota(caller, quota);
      return deliver(ctx, result, commonHeaders(quota), deps.logger);
    };

    /**
     * The metered calls of a request, answered together (meterTogether): the combined answer is
     * written once every call has one; each call is charged once that answer was received whole. A
     * call that failed makes the answer its error, and none is charged.
     */
    const answerWithCalls = async <C extends MarketCall>(
      calls: C[],
      combine: (values: Array<MarketValue<C>>) => unknown,
      beforeSend?: (body: string, values: Array<MarketValue<C>>) => Promise<void>,
    ): Promise<Extract<RouteResult, { kind: 'sent' } | { kind: 'error' }>> => {
      metered = true;
      const principal = caller!.principal;
      let values: Array<MarketValue<C>> = [];
      let sent: string | null = null;
      const outcome = await meterTogether(deps.meter, {
        workspace: { id: principal.workspaceId, concurrency: principal.plan.concurrency },
        calls: calls.map((call, index) => ({ requestId: index === 0 ? requestId : newRequestId(), call, admitted: index === 0 ? ticket : null })),
        signal,
        patience: 'brief',
        history: { method: ctx.method, path: route.path, jobId: null, apiKeyId: principal.apiKeyId, apiKeyPrefix: principal.apiKeyPrefix },
        deliver: async (answers) => {
          values = answers.map((given) => given.value);
          const body = JSON.stringify(combine(values));
          await beforeSend?.(body, values);
          // The figures of the reservation made last: every unit of the request is taken by then.
          const quota = answers.map((given) => given.quota).reduce((lowest, next) => (next.remaining < lowest.remaining ? next : lowest));
          const received = await answer({ kind: 'json', status: 200, body, headers: NO_STORE, quota });
          if (received) sent = body;
          return received;
        },
      });
      if (outcome.kind === 'failed') return { kind: 'error', error: outcome.error, quota: outcome.quota };
      return { kind: 'sent', body: sent, charged: outcome.charged, resultCount: calls.length === 1 && values[0] ? countOf(values[0]) : null };
    };

    let result: RouteResult;
    try {
      caller = await deps.authenticator.authenticate(ctx.get('authorization') || undefined, clientNetworkOf(ctx.ip));
      const { principal } = caller;
      const { requests, windowSeconds } = principal.plan.rateLimit;
      if (route.market === 'call') {
        // A metered route counts the request against the rate and admits its first call in one Redis round trip.
        const admission = await deps.meter.admitRequest({
          workspace: { id: principal.workspaceId, concurrency: principal.plan.concurrency },
          requestId,
          rate: { key: deps.rateLimiter.keyOf(principal.workspaceId, windowSeconds), limit: requests, windowSeconds },
        });
        rate = admission.rate;
        ticket = admission.ticket;
      } else rate = await callRedis(() => deps.rateLimiter.consume(principal.workspaceId, requests, windowSeconds));
      if (!rate.allowed) {
        throw new AppError('rate_limited', `Rate limit of ${requests} requests per ${windowSeconds} s exceeded; retry after ${rate.resetSeconds} s`, { retryAfter: rate.resetSeconds });
      }
      // A request without a body has none to refuse as the wrong type: the route's schema says what is missing.
      if (readJsonBody && (ctx.request.length || ctx.get('transfer-encoding'))) {
        await readJsonBody(ctx, async () => undefined);
        rawBody = jsonBodyOf(ctx);
      }
      const request: RouteRequest<unknown, unknown, unknown> = {
        requestId,
        principal,
        params: route.params ? parseOrThrow(route.params.schema, (ctx as { params?: unknown }).params ?? {}, route.params.message) : undefined,
        query: route.query ? parseOrThrow(route.query.schema, ctx.query, route.query.message) : undefined,
        body: route.body ? parseOrThrow(route.body.schema, rawBody, route.body.message) : undefined,
        idempotencyKey: route.idempotencyKey ? idempotencyKeyOf(ctx.req.headersDistinct) : null,
        signal,
        answerWithCall: (call, options = {}) =>
          answerWithCalls([call], (values) => values[0], options.beforeSend ? (body, [value]) => options.beforeSend!({ body, resultCount: countOf(value!) }) : undefined),
        answerWithCalls: (calls, combine) => answerWithCalls(calls, combine),
      };
      result = await route.handle(request);
    } catch (error) {
      // The caller left while the route waited: nobody will read the answer, and nothing went wrong.
      const callerLeft = signal.aborted && error === signal.reason && !(error instanceof AppError);
      const appError = callerLeft ? new AppError('service_unavailable', 'The caller left') : toAppError(error);
      if (appError.code === 'internal_error') deps.logger.error({ err: error }, 'unexpected error');
      result = { kind: 'error', error: appError };
    }

    // No call took the admission (the input was refused, an idempotent replay): it goes back before the answer.
    await ticket?.release().catch((error: unknown) => deps.logger.warn({ err: String(error) }, 'permit release failed; it lapses with its lease'));
    const received = result.kind === 'sent' ? result.body !== null : await answer(result);
    if (result.kind === 'sent' && !received) ctx.state.notReceived = true;
    dispose();
    // A metered call's entry is the meter's; a stream of calls records each call.
    if (metered || result.kind === 'sent' || (result.kind === 'stream' && result.ownEntries)) return;
    const facts = requestFactsOf(route.facts, { query: ctx.query, body: rawBody });
    const entry: CallerlessRecord = {
      requestId,
      method: ctx.method,
      path: route.path,
      status: received ? statusOf(result) : 499,
      code: received && result.kind === 'error' ? result.error.code : null,
      charged: 0,
      durationMs: Math.round(performance.now() - started),
      marketSite: facts.marketSite,
      hasKeyword: facts.hasKeyword,
      resultCount: result.kind === 'json' ? (result.resultCount ?? null) : null,
      jobId: result.kind === 'error' ? null : (result.jobId ?? null),
    };
    if (caller) {
      const { workspaceId, apiKeyId, apiKeyPrefix } = caller.principal;
      deps.history.add({ ...entry, workspaceId, apiKeyId, apiKeyPrefix });
      return;
    }
    // Authentication could not finish (Redis or accounts was down): a well-formed key's workspace is
    // looked up once accounts answers. A refused key (401, 429) has no workspace to give an entry to.
    const keyHash = keyHashOf(ctx.get('authorization') || undefined);
    if (keyHash && result.kind === 'error' && result.error.code === 'service_unavailable') deps.historyAwaitingCaller.add(keyHash, entry);
  };
}
