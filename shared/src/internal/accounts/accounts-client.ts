import type { EffectivePlan } from '../../contract/usage.js';
import type { QuotaLedger } from '../../metering/quota-ledger.js';
import { ExpiringMap } from '../../runtime/expiring-map.js';
import { createInternalClient, type InternalClientOptions } from '../internal-client.js';
import type { ContractClient } from '../procedure-contract.js';
import { accountsContract } from './accounts-contract.js';

/** The accounts service as the other services call it: its internal procedures, typed by their contract. */
export type AccountsClient = ContractClient<typeof accountsContract>;

/** Calls fail as AppErrors with accounts' own codes (`service_unavailable` when it cannot be reached). */
export function createAccountsClient(options: InternalClientOptions): AccountsClient {
  return createInternalClient('account service', accountsContract, options);
}

/** The usage ledger through accounts, as the metering module charges: one call per operation. */
export function accountsQuotaLedger(client: AccountsClient): QuotaLedger {
  return {
    reserve: (workspaceId, requestId) => client.quota.reserve.mutate({ workspaceId, requestId }),
    release: async (requestId) => {
      await client.quota.release.mutate({ requestId });
    },
    settle: (requestId) => client.quota.settle.mutate({ requestId }),
    settleBatch: (requestIds, history, allowanceCharges = []) => client.quota.settleBatch.mutate({ requestIds, history, allowanceCharges }),
    leaseAllowance: (input) => client.quota.leaseAllowance.mutate(input),
    renewAllowances: async (allowanceIds, leaseMs) => (await client.quota.renewAllowances.mutate({ allowanceIds, leaseMs })).renewed,
    returnAllowance: async (allowanceId, units) => (await client.quota.returnAllowance.mutate({ allowanceId, units })).returned,
  };
}

const CONCURRENCY_TTL_MS = 5000;
const MAX_CACHED_WORKSPACES = 10_000;

/** A workspace's limits in force (its plan's, with the operator's overrides), cached a few seconds: background work asks once per call. */
export function workspacePlans(client: AccountsClient, now: () => number = Date.now): (workspaceId: string) => Promise<EffectivePlan> {
  const cache = new ExpiringMap<EffectivePlan>(CONCURRENCY_TTL_MS, MAX_CACHED_WORKSPACES);
  return async (workspaceId) => {
    const cached = cache.get(workspaceId, now());
    if (cached) return cached.value;
    const { plan } = await client.workspaces.get.query({ workspaceId });
    cache.set(workspaceId, plan, now());
    return plan;
  };
}

/** A workspace's concurrency (its plan's, with the operator's overrides), cached a few seconds. */
export function workspaceConcurrency(client: AccountsClient, now: () => number = Date.now): (workspaceId: string) => Promise<number> {
  const plans = workspacePlans(client, now);
  return async (workspaceId) => (await plans(workspaceId)).concurrency;
}
