import { sql } from 'kysely';
import type { AccountsExecutor } from '../db/database.js';

export interface StoredSession {
  userId: string;
  email: string;
  workspaceId: string;
  createdAt: Date;
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

export async function insertSession(db: AccountsExecutor, session: { idHash: string; userId: string; expiresAt: Date; absoluteExpiresAt: Date }): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/** The session and its user, while it has not expired. */
export async function findLiveSession(db: AccountsExecutor, idHash: string, now: Date): Promise<StoredSession | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .select(['sessions.userId', 'users.email', 'users.workspaceId', 'sessions.createdAt', 'sessions.expiresAt', 'sessions.absoluteExpiresAt'])
    .where('sessions.idHash', '=', idHash)
    .where('sessions.expiresAt', '>', now)
    .executeTakeFirst();
}

/** Moves the idle expiry on, never past the absolute one. */
export async function extendSession(db: AccountsExecutor, idHash: string, idleExpiresAt: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ expiresAt: sql<Date>`LEAST(${idleExpiresAt}, absolute_expires_at)` })
    .where('idHash', '=', idHash)
    .execute();
}

export async function deleteSession(db: AccountsExecutor, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('idHash', '=', idHash).execute();
}

export async function deleteUserSessions(db: AccountsExecutor, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('userId', '=', userId).execute();
}

export async function deleteExpiredSessions(db: AccountsExecutor, now: Date, batchSize: number): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expiresAt', '<=', now).limit(batchSize).executeTakeFirst();
  return Number(result.numDeletedRows);
}
