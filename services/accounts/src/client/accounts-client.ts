import type { TRPCClient } from '@trpc/client';
import type { QuotaLedger } from '@comps/shared/metering/quota-ledger';
import { callInternal, createInternalClient, type InternalClientOptions } from '@comps/shared/trpc/internal-client';
import type { AccountsRouter } from '../trpc/router.js';

export type { Principal } from '@comps/shared/accounts/principal';
export type { QuotaSnapshot } from '@comps/shared/accounts/quota';
export type { HistoryRecord } from '@comps/shared/accounts/history-record';
export { HistoryWriter } from './history-writer.js';
export { MAX_ANSWERED_REQUEST_IDS } from '../trpc/procedures/get-usage.js';

/** The accounts service as the other services call it: its tRPC router, over its internal port. */
export type AccountsClient = TRPCClient<AccountsRouter>;

export function createAccountsClient(options: InternalClientOptions): AccountsClient {
  return createInternalClient<AccountsRouter>(options);
}

/** Calls accounts; its AppErrors arrive with their code (see callInternal). */
export function callAccounts<T>(call: () => Promise<T>): Promise<T> {
  return callInternal('account service', call);
}

/** The usage ledger through accounts, as the metering module charges: one call per operation. */
export function accountsQuotaLedger(client: AccountsClient): QuotaLedger {
  return {
    reserve: (workspaceId, requestId) => callAccounts(() => client.quota.reserve.mutate({ workspaceId, requestId })),
    release: async (requestId) => {
      await callAccounts(() => client.quota.release.mutate({ requestId }));
    },
    settle: (requestId) => callAccounts(() => client.quota.settle.mutate({ requestId })),
    settleBatch: (requestIds, history) => callAccounts(() => client.quota.settleBatch.mutate({ requestIds, history })),
  };
}
