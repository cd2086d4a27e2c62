import { callAccounts, type AccountsClient } from '@comps/accounts/client';
import { ExpiringMap } from '@comps/shared/runtime/expiring-map';

const TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

/** A workspace's concurrency from accounts, cached a few seconds (a job asks once per page). */
export function workspaceConcurrency(accounts: AccountsClient, now: () => number = Date.now): (workspaceId: string) => Promise<number> {
  const cache = new ExpiringMap<number>(TTL_MS, MAX_ENTRIES);
  return async (workspaceId) => {
    const cached = cache.get(workspaceId, now());
    if (cached) return cached.value;
    const { plan } = await callAccounts(() => accounts.workspaces.get.query({ workspaceId }));
    cache.set(workspaceId, plan.concurrency, now());
    return plan.concurrency;
  };
}
