import { accountsClient } from './accounts-client.js';
import { eventually } from './http-client.js';

/** Where a test reaches accounts' procedures: a whole stack's, or the in-process one's. */
export interface AccountsAddress {
  accountsInternalUrl: string;
  internalToken: string;
}

export interface HistoryView {
  requestId: string;
  path: string;
  status: number;
  code: string | null;
  charged: 0 | 1;
  durationMs: number;
  marketSite: string | null;
  keyword: string | null;
  resultCount: number | null;
  jobId: string | null;
}

/**
 * What the ledger charged a workspace this month, once nothing is in flight: charges are settled
 * just after each answer (the settlement outbox), so this waits until every unit held is settled.
 * After a process was killed, that takes up to its stack's SETTLEMENT_CLAIM_IDLE_MS (its charges
 * being settled when it died are claimed by another process then), plus the time a loaded machine
 * (CI runs two stacks at once on two cores) adds: 20 s.
 */
export async function usedOf(stack: AccountsAddress, workspaceId: string): Promise<number> {
  let last = '';
  try {
    return await eventually(`every unit held by ${workspaceId} is settled`, async () => {
      const usage = await accountsClient(stack).usage.get.query({ workspaceId });
      last = `used ${usage.used}, remaining ${usage.remaining} of ${usage.plan.monthlyQuota}`;
      return usage.used + usage.remaining === usage.plan.monthlyQuota ? usage.used : undefined;
    }, { timeoutMs: 20_000 });
  } catch (error) {
    // What was still held tells a charge on its way from units nobody will settle.
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last seen: ${last}`, { cause: error });
  }
}

/** The workspace's history once it holds at least `count` entries (it is written just after each answer). */
export async function historyOf(stack: AccountsAddress, workspaceId: string, count: number): Promise<HistoryView[]> {
  return eventually(`the history of ${workspaceId} holds ${count} entries`, async () => {
    const page = await accountsClient(stack).history.list.query({ workspaceId, limit: 100 });
    return page.entries.length >= count ? (page.entries as HistoryView[]) : undefined;
  }, { timeoutMs: 8000 });
}

/** Every entry of the workspace's history, newest first (read page by page). */
export async function wholeHistoryOf(stack: AccountsAddress, workspaceId: string): Promise<HistoryView[]> {
  const entries: HistoryView[] = [];
  for (let before: string | null | undefined; before !== null; ) {
    const page = await accountsClient(stack).history.list.query({ workspaceId, limit: 100, ...(before ? { beforeRequestId: before } : {}) });
    entries.push(...(page.entries as HistoryView[]));
    before = page.continueBefore;
  }
  return entries;
}
