import type { Writable } from 'node:stream';
import type { z } from 'zod';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import type { AppError } from '@comps/shared/errors/app-error';
import type { Principal } from '@comps/shared/internal/accounts/principal';
import type { QuotaSnapshot } from '@comps/shared/internal/accounts/quota';
import type { MarketCall, MarketValue } from '@comps/shared/market/market-call';

/**
 * What a route returns; one place (serve-route.ts) turns it into the status, the headers, the
 * bytes on the socket, the history entry and the access log line.
 */
export type RouteResult =
  /** A JSON answer: a value, or JSON already serialized (an idempotent replay sends the same bytes again). */
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string>; quota?: QuotaSnapshot; resultCount?: number | null; jobId?: string }
  /**
   * A streamed answer of another type: `write` writes the body to the response (which the one place
   * then ends). With `ownEntries`, each call the stream makes has its own history entry (a bulk
   * search's keywords) and the request itself gets none.
   */
  | { kind: 'stream'; status: number; contentType: string; headers?: Record<string, string>; jobId?: string; ownEntries?: boolean; write: (out: Writable) => Promise<void> }
  | { kind: 'error'; error: AppError; quota?: QuotaSnapshot | null }
  /** The answer of a metered call, already written by the call (see RouteRequest.answerWithCall): `body` when received, with whether it was charged. */
  | { kind: 'sent'; body: string | null; charged: boolean; resultCount: number | null };

/** An input a route reads and validates, with the message of its 400 when it is refused. */
export interface InputSpec<T> {
  /** What is validated (may refine and transform). */
  schema: z.ZodType<T>;
  /** The object of fields the reference documents (the schema before refinements). */
  fields: z.ZodObject;
  /** The message of the 400 `invalid_request` when it is refused. */
  message: string;
}

/** What a route's handler is given: the caller and the validated request, never Koa's context. */
export interface RouteRequest<Q, P, B> {
  requestId: string;
  principal: Principal;
  query: Q;
  params: P;
  body: B;
  /** The caller's `Idempotency-Key`, for routes that take one (validated), else null. */
  idempotencyKey: string | null;
  /** Aborts when the caller goes away, or when the service stops before the request could finish. */
  signal: AbortSignal;
  /**
   * Runs one metered marketplace call whose answer (as JSON) is this request's answer: it is
   * written as soon as it is read, and charged only once the caller received it whole. Its history
   * entry is the meter's. `beforeSend` runs with the serialized answer just before it is written (an
   * answer that fails there is not written, nor charged). Returns what was sent, or the error to answer with.
   */
  answerWithCall(call: MarketCall, options?: { beforeSend?: (answer: { body: string; resultCount: number }) => Promise<void> }): Promise<Extract<RouteResult, { kind: 'sent' } | { kind: 'error' }>>;
  /**
   * Several metered calls answered together (a sell-through's sold and active searches): run at
   * once, each with its own request id and history entry (the first has the request's), their
   * values combined into one JSON answer once all succeeded, every call charged only once that
   * answer was received whole. When one fails, the answer is its error and none is charged.
   */
  answerWithCalls<C extends MarketCall>(calls: C[], combine: (values: Array<MarketValue<C>>) => unknown): Promise<Extract<RouteResult, { kind: 'sent' } | { kind: 'error' }>>;
}

/** Where the facts of a request's history entry come from, known even when its input is refused. */
export interface RequestFactsSource {
  from: 'query' | 'body';
  /** The field holding search text, if the request has one (`keyword`, or a bulk search's `keywords`). */
  searchText?: 'keyword' | 'keywords';
  /** Whether `marketSite` is a field of the request (a job's result list has none). */
  site: boolean;
}

/** For answers no cache may keep: each is the caller's own, and may differ on the next call. */
export const NO_STORE = { 'Cache-Control': 'no-store' };

/** One example call for the reference: the values a caller sends and the success it gets. */
export interface OperationExample {
  request?: { query?: Record<string, string | number | boolean>; path?: Record<string, string>; body?: Record<string, unknown> };
  response: unknown;
}

interface RouteBase {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path as the reference writes it: `/v1/item/{itemId}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: 'Listings' | 'Jobs' | 'Tracked searches' | 'Webhooks' | 'Account' | 'Service';
  success: {
    status: number;
    description: string;
    /** The JSON body's schema; null for a JSON body the reference leaves open, absent for other media types. */
    schema?: z.ZodType | null;
    /** application/json unless said. */
    contentType?: string;
    /** Another success of the same operation (an idempotent repeat). */
    also?: { status: number; description: string };
  };
  example: OperationExample;
}

/** A route anyone may call (no key, no rate, no history): its answer is fixed for the life of the process. */
export interface PublicRoute extends RouteBase {
  access: 'public';
  handle(): RouteResult;
}

/** A route that needs an API key. Its error answers are derived from what it declares it does. */
export interface ApiKeyRoute<Q = unknown, P = unknown, B = unknown> extends RouteBase {
  access: 'apiKey';
  query?: InputSpec<Q>;
  params?: InputSpec<P>;
  /** A JSON body (read after authentication: a caller without a key learns nothing else). */
  body?: InputSpec<B>;
  /** Takes an `Idempotency-Key` header. */
  idempotencyKey?: boolean;
  /**
   * `call`: one metered marketplace call answers the request (quota, data gate, site, concurrency and
   * upstream errors); `work`: the request accepts marketplace work for later (a job, a bulk search),
   * refused up front when the data gate or the site is closed.
   */
  market?: 'call' | 'work';
  /** Error codes of the route's own (job_not_found, item_not_found, …). */
  errors?: ErrorCode[];
  facts?: RequestFactsSource;
  handle(request: RouteRequest<Q, P, B>): Promise<RouteResult>;
}

export type RouteDefinition = PublicRoute | ApiKeyRoute<any, any, any>;

/** Defines an API-key route; its types flow from its inputs to its handler. */
export function defineRoute<Q = undefined, P = undefined, B = undefined>(route: Omit<ApiKeyRoute<Q, P, B>, 'access'>): ApiKeyRoute<Q, P, B> {
  return { ...route, access: 'apiKey' };
}

export function definePublicRoute(route: Omit<PublicRoute, 'access'>): PublicRoute {
  return { ...route, access: 'public' };
}

/** The data gate and the site (capabilities): closed or not enabled, before anything is taken. */
const GATE: ErrorCode[] = ['data_gate_closed', 'site_not_enabled'];
const UPSTREAM: ErrorCode[] = ['upstream_error', 'upstream_blocked', 'upstream_rate_limited', 'upstream_timeout'];

/**
 * Every error code a route can answer, derived from what it does: the reference lists exactly
 * these, and a test provokes each on each route.
 */
export function errorCodesOf(route: RouteDefinition): ErrorCode[] {
  const codes = new Set<ErrorCode>(['method_not_allowed']);
  const add = (...more: ErrorCode[]) => more.forEach((code) => codes.add(code));
  if (route.access === 'apiKey') {
    // The key (and the failed-key throttle), the workspace's rate, the dependencies behind it.
    add('unauthorized', 'rate_limited', 'service_unavailable', 'internal_error');
    if (route.query || route.params) add('invalid_request');
    if (route.body) add('invalid_request', 'payload_too_large', 'unsupported_media_type');
    if (route.idempotencyKey) add('invalid_idempotency_key', 'idempotency_key_reused');
    if (route.market === 'work') add(...GATE);
    if (route.market === 'call') add(...GATE, 'quota_exhausted', 'concurrency_limited', ...UPSTREAM);
    add(...(route.errors ?? []));
  }
  return [...codes];
}

/** `/v1/item/{itemId}` as the router writes it: `/v1/item/:itemId`. */
export function routerPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}
