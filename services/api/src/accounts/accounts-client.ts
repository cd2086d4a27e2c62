import { createTRPCClient, httpLink, TRPCClientError, type TRPCClient } from '@trpc/client';
import type { AccountsRouter } from '@comps/accounts/trpc-router';
import { AppError } from '@comps/shared/errors/app-error';
import { INTERNAL_TOKEN_HEADER } from '@comps/shared/http/require-internal-token';
import { TRPC_BASE_PATH } from '@comps/shared/http/mount-trpc';

export type AccountsClient = TRPCClient<AccountsRouter>;

export interface AccountsClientOptions {
  url: string;
  internalToken: string;
  timeoutMs: number;
}

export function createAccountsClient({ url, internalToken, timeoutMs }: AccountsClientOptions): AccountsClient {
  return createTRPCClient<AccountsRouter>({
    links: [
      httpLink({
        url: `${url}${TRPC_BASE_PATH.replace(/\/$/, '')}`,
        headers: { [INTERNAL_TOKEN_HEADER]: internalToken },
        // A hung accounts service must fail the request, not hold it.
        fetch: (input, init) => {
          const timeout = AbortSignal.timeout(timeoutMs);
          const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
          return fetch(input, { ...init, signal } as RequestInit);
        },
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
