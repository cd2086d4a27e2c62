import type { Usage } from '@comps/shared/contract/usage';
import { quotaPeriodAt } from '@comps/shared/db/period';
import { requestIdFloor, requestIdTime } from '@comps/shared/ids';
import { getUsage } from '../workspaces/workspace-service.js';
import { listWorkspaceKeys, newestRequestOfKeys, type ListedApiKey } from './key-list-repository.js';
import { countRequestsByDay, type DayCount } from './usage-by-day-repository.js';
import type { AccountsDb } from '../db/database.js';

const DAY_MS = 86_400_000;

export interface Overview {
  usage: Usage;
  /** Every day of the month, with its requests (days without any, and days to come, are zeros). */
  days: DayCount[];
  /** `YYYY-MM-DD` of today (UTC). */
  today: string;
}

/** The overview page: the plan and the month's usage from the ledger, requests per day from the history. */
export async function getOverview(db: AccountsDb, workspaceId: string, now: Date): Promise<Overview> {
  const period = quotaPeriodAt(now);
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const [usage, counted] = await Promise.all([
    getUsage(db, workspaceId, now),
    countRequestsByDay(db, workspaceId, requestIdFloor(period.start), requestIdFloor(tomorrow)),
  ]);
  const byDay = new Map(counted.map((count) => [count.day, count]));
  const days: DayCount[] = [];
  for (let time = period.start.getTime(); time < period.end.getTime(); time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    days.push(byDay.get(day) ?? { day, total: 0, charged: 0 });
  }
  return { usage, days, today: now.toISOString().slice(0, 10) };
}

export interface KeyListEntry extends ListedApiKey {
  /** When the key last made a request the history still holds (30 days), or null. */
  lastUsedAt: Date | null;
}

export async function listKeys(db: AccountsDb, workspaceId: string): Promise<KeyListEntry[]> {
  const keys = await listWorkspaceKeys(db, workspaceId);
  const newest = await newestRequestOfKeys(db, workspaceId, keys.map((key) => key.id));
  return keys.map((key) => {
    const requestId = newest.get(key.id);
    return { ...key, lastUsedAt: requestId ? requestIdTime(requestId) : null };
  });
}
