import { callAccounts, type AccountsClient } from '@comps/accounts/client';

const TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

/** A workspace's concurrency from accounts, cached a few seconds (a job asks once per page). */
export function workspaceConcurrency(accounts: AccountsClient, now: () => number = Date.now): (workspaceId: string) => Promise<number> {
  const cache = new Map<string, { concurrency: number; until: number }>();
  return async (workspaceId) => {
    const cached = cache.get(workspaceId);
    if (cached && cached.until > now()) return cached.concurrency;
    const { plan } = await callAccounts(() => accounts.workspaces.get.query({ workspaceId }));
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(workspaceId, { concurrency: plan.concurrency, until: now() + TTL_MS });
    return plan.concurrency;
  };
}
