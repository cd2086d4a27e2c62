import { sql } from 'kysely';
import type { AccountsExecutor } from '../db/database.js';

export interface DayCount {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  total: number;
  charged: number;
}

/** Requests per UTC day from the request history, within a range of request ids (which sort by time). */
export async function countRequestsByDay(db: AccountsExecutor, workspaceId: string, fromRequestId: string, toRequestIdExclusive: string): Promise<DayCount[]> {
  const rows = await db
    .selectFrom('requestHistory')
    .select([sql<string>`DATE(created_at)`.as('day'), sql<number>`COUNT(*)`.as('total'), sql<number>`SUM(charged)`.as('charged')])
    .where('workspaceId', '=', workspaceId)
    .where('requestId', '>=', fromRequestId)
    .where('requestId', '<', toRequestIdExclusive)
    .groupBy(sql`DATE(created_at)`)
    .execute();
  return rows.map((row) => ({ day: String(row.day), total: Number(row.total), charged: Number(row.charged) }));
}
