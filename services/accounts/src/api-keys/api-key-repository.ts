import { sql } from 'kysely';
import type { AccountsExecutor } from '../db/database.js';

export interface StoredApiKey {
  id: string;
  workspaceId: string;
  keyHash: string;
  prefix: string;
  lastFour: string;
}

export async function insertApiKey(
  db: AccountsExecutor,
  key: { id: string; workspaceId: string; keyHash: string; prefix: string; lastFour: string; name: string | null },
): Promise<void> {
  await db.insertInto('apiKeys').values(key).execute();
}

export async function findActiveApiKeyByHash(db: AccountsExecutor, keyHash: string): Promise<StoredApiKey | undefined> {
  return db
    .selectFrom('apiKeys')
    .select(['id', 'workspaceId', 'keyHash', 'prefix', 'lastFour'])
    .where('keyHash', '=', keyHash)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
}

/** Revokes by hash or by id; returns the revoked key, or undefined when none was active. */
export async function revokeApiKey(
  db: AccountsExecutor,
  match: { keyHash: string } | { id: string },
  now: Date,
  workspaceId?: string,
): Promise<StoredApiKey | undefined> {
  const column = 'keyHash' in match ? 'keyHash' : 'id';
  const value = 'keyHash' in match ? match.keyHash : match.id;
  let query = db
    .selectFrom('apiKeys')
    .select(['id', 'workspaceId', 'keyHash', 'prefix', 'lastFour'])
    .where(column, '=', value)
    .where('revokedAt', 'is', null);
  if (workspaceId !== undefined) query = query.where('workspaceId', '=', workspaceId);
  const key = await query.executeTakeFirst();
  if (!key) return undefined;
  await db.updateTable('apiKeys').set({ revokedAt: now }).where('id', '=', key.id).where('revokedAt', 'is', null).execute();
  return key;
}

/** Active keys' hashes after `afterId`, in the order of their ids (a page of an api's full load). */
export async function listActiveKeyHashes(db: AccountsExecutor, afterId: string | null, limit: number): Promise<Array<{ id: string; keyHash: string }>> {
  let query = db.selectFrom('apiKeys').select(['id', 'keyHash']).where('revokedAt', 'is', null);
  if (afterId !== null) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

export async function countActiveKeys(db: AccountsExecutor): Promise<number> {
  const row = await db.selectFrom('apiKeys').select((eb) => eb.fn.countAll<number>().as('count')).where('revokedAt', 'is', null).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Hashes of the keys made (still active) and revoked at or after `since`, and the database's time. */
/** The database's clock (the keys' times are its). */
export async function databaseTime(db: AccountsExecutor): Promise<Date> {
  return (await sql<{ now: Date }>`SELECT CURRENT_TIMESTAMP(3) AS now`.execute(db)).rows[0]!.now;
}

export async function keyChangesSince(db: AccountsExecutor, since: Date): Promise<{ created: string[]; revoked: string[]; asOf: Date }> {
  const asOf = await databaseTime(db);
  const created = await db.selectFrom('apiKeys').select('keyHash').where('createdAt', '>=', since).where('revokedAt', 'is', null).execute();
  const revoked = await db.selectFrom('apiKeys').select('keyHash').where('revokedAt', '>=', since).execute();
  return { created: created.map((row) => row.keyHash), revoked: revoked.map((row) => row.keyHash), asOf };
}
