import { sql } from 'kysely';
import type { AccountsExecutor } from '../db/database.js';

export interface ListedApiKey {
  id: string;
  name: string | null;
  prefix: string;
  lastFour: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** The workspace's keys, active first, newest first. */
export async function listWorkspaceKeys(db: AccountsExecutor, workspaceId: string): Promise<ListedApiKey[]> {
  return db
    .selectFrom('apiKeys')
    .select(['id', 'name', 'prefix', 'lastFour', 'createdAt', 'revokedAt'])
    .where('workspaceId', '=', workspaceId)
    .orderBy(sql`revoked_at IS NULL`, 'desc')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The newest request id of each key in the request history (one index lookup per key). */
export async function newestRequestOfKeys(db: AccountsExecutor, workspaceId: string, apiKeyIds: string[]): Promise<Map<string, string>> {
  if (apiKeyIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('requestHistory')
    .select(['apiKeyId', sql<string>`MAX(request_id)`.as('newest')])
    .where('workspaceId', '=', workspaceId)
    .where('apiKeyId', 'in', apiKeyIds)
    .groupBy('apiKeyId')
    .execute();
  return new Map(rows.flatMap((row) => (row.apiKeyId ? [[row.apiKeyId, row.newest] as const] : [])));
}
