import { createTRPCClient, httpLink, TRPCClientError, type TRPCClient } from '@trpc/client';
import { Agent, request } from 'undici';
import type { AccountsRouter } from '@comps/accounts/trpc-router';
import { AppError } from '@comps/shared/errors/app-error';
import { INTERNAL_TOKEN_HEADER } from '@comps/shared/http/require-internal-token';
import { TRPC_BASE_PATH } from '@comps/shared/http/mount-trpc';
import { deadline } from '@comps/shared/runtime/deadline';

export type AccountsClient = TRPCClient<AccountsRouter>;

export interface AccountsClientOptions {
  url: string;
  internalToken: string;
  timeoutMs: number;
}

// One keep-alive pool for every call to accounts; undici's request API skips the web-streams layer of fetch.
const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 30_000 });

/** What tRPC needs of fetch, on undici's request: the whole (small) JSON answer read within the deadline. */
async function requestJson(url: string, init: RequestInit | undefined, timeoutMs: number): Promise<Response> {
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

export function createAccountsClient({ url, internalToken, timeoutMs }: AccountsClientOptions): AccountsClient {
  return createTRPCClient<AccountsRouter>({
    links: [
      httpLink({
        url: `${url}${TRPC_BASE_PATH.replace(/\/$/, '')}`,
        headers: { [INTERNAL_TOKEN_HEADER]: internalToken },
        // A hung accounts service must fail the request, not hold it.
        fetch: (input, init) => requestJson(String(input), init, timeoutMs),
      }),
    ],
  });
}

/**
 * Calls accounts, turning its failures into the contract: unreachable, timed out or reporting its
 * database down is `service_unavailable`; anything else is our own fault, `internal_error`.
 */
export async function callAccounts<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const code = (error.data as { code?: string } | undefined)?.code;
      if (code === undefined || code === 'SERVICE_UNAVAILABLE' || code === 'TIMEOUT') {
        throw new AppError('service_unavailable', 'The account service is unavailable; try again shortly', {
          retryAfter: 2,
          cause: error,
        });
      }
    }
    throw new AppError('internal_error', 'Internal error', { cause: error });
  }
}
