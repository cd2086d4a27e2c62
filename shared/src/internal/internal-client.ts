import { createTRPCUntypedClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { request, type Dispatcher } from 'undici';
import type { ErrorDetail } from '../contract/error-body.js';
import type { ErrorCode } from '../contract/error-codes.js';
import { AppError } from '../errors/app-error.js';
import { TRPC_BASE_PATH } from '../http/mount-trpc.js';
import { INTERNAL_TOKEN_HEADER } from '../http/require-internal-token.js';
import { deadline } from '../runtime/deadline.js';
import { contractClient, type ContractClient, type ContractTree } from './procedure-contract.js';

export interface InternalClientOptions {
  /** The service's internal address, e.g. http://127.0.0.1:4103. */
  url: string;
  internalToken: string;
  /** A call that takes longer fails with `service_unavailable`: a hung service must not hold its callers. */
  timeoutMs: number;
  /** The caller's keep-alive pool (an undici Agent its main makes, and closes at shutdown). */
  dispatcher: Dispatcher;
}

/** What tRPC needs of fetch, on undici's request (no web-streams layer): the small JSON answer read within the deadline. */
async function requestJson(url: string, init: RequestInit | undefined, timeoutMs: number, dispatcher: Dispatcher): Promise<Response> {
  const limit = deadline(timeoutMs, init?.signal);
  try {
    const response = await request(url, {
      method: (init?.method ?? 'GET') as 'GET' | 'POST',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: init?.body as string | undefined,
      signal: limit.signal,
      dispatcher,
    });
    const body = await response.body.text();
    return new Response(body, { status: response.statusCode, headers: { 'content-type': 'application/json' } });
  } finally {
    limit.release();
  }
}

/**
 * A client of another service's internal procedures, typed by their contract (see
 * procedure-contract.ts). Every call keeps the contract across the boundary (see callInternal): an
 * AppError raised there is raised here with the same code.
 */
export function createInternalClient<C extends ContractTree>(service: string, contract: C, { url, internalToken, timeoutMs, dispatcher }: InternalClientOptions): ContractClient<C> {
  const options = {
    url: `${url.replace(/\/$/, '')}${TRPC_BASE_PATH.replace(/\/$/, '')}`,
    headers: { [INTERNAL_TOKEN_HEADER]: internalToken },
    // Every call is a POST: a query's input then travels in the body, never in a URL of limited length.
    methodOverride: 'POST' as const,
    fetch: (input: unknown, init: RequestInit | undefined) => requestJson(String(input), init, timeoutMs, dispatcher),
  };
  // Our routers have no transformer; through the generic router type tRPC cannot see that.
  const transport = createTRPCUntypedClient<AnyRouter>({ links: [httpLink<AnyRouter>(options as unknown as Parameters<typeof httpLink<AnyRouter>>[0])] });
  return contractClient(contract, (path, type, input, callOptions) =>
    callInternal(service, () => (type === 'query' ? transport.query(path, input, callOptions) : transport.mutation(path, input, callOptions))),
  );
}

/**
 * Calls another service, keeping the contract across the boundary: an AppError raised there is
 * raised here with the same code (and so the same status); the service unreachable, timed out or
 * reporting its database down is `service_unavailable`; anything else is `internal_error`.
 */
export async function callInternal<T>(service: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const data = error.data as
        | { appCode?: ErrorCode | null; retryAfter?: number | null; jobId?: string | null; details?: ErrorDetail[] | null; code?: string }
        | undefined;
      if (data?.appCode && data.appCode !== 'internal_error') {
        throw new AppError(data.appCode, error.message, {
          ...(data.retryAfter ? { retryAfter: data.retryAfter } : {}),
          ...(data.jobId ? { jobId: data.jobId } : {}),
          ...(data.details ? { details: data.details } : {}),
          cause: error,
        });
      }
      if ((error.meta as { response?: { status?: number } } | undefined)?.response?.status === 401) {
        // A deployment fault, not the caller's: this service's INTERNAL_TOKEN is not the one the other has.
        throw new AppError('service_unavailable', `The ${service} refused the internal token (INTERNAL_TOKEN differs)`, { retryAfter: 2, cause: error });
      }
      if (data === undefined || data.code === 'SERVICE_UNAVAILABLE' || data.code === 'TIMEOUT') {
        throw new AppError('service_unavailable', `The ${service} is unavailable; try again shortly`, { retryAfter: 2, cause: error });
      }
    }
    throw new AppError('internal_error', 'Internal error', { cause: error });
  }
}
