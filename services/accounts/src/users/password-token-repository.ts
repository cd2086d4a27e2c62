import type { AccountsExecutor } from '../db/database.js';

export async function insertPasswordToken(db: AccountsExecutor, token: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
  await db.insertInto('passwordTokens').values(token).execute();
}

/** The user a token still valid at `now` belongs to. */
export async function findPasswordTokenUser(db: AccountsExecutor, tokenHash: string, now: Date): Promise<{ userId: string; email: string } | undefined> {
  return db
    .selectFrom('passwordTokens')
    .innerJoin('users', 'users.id', 'passwordTokens.userId')
    .select(['users.id as userId', 'users.email'])
    .where('passwordTokens.tokenHash', '=', tokenHash)
    .where('passwordTokens.expiresAt', '>', now)
    .executeTakeFirst();
}

/** Uses the token up: true for the one caller that deleted it (a link works once, even when submitted twice at once). */
export async function consumePasswordToken(db: AccountsExecutor, tokenHash: string, now: Date): Promise<boolean> {
  const result = await db.deleteFrom('passwordTokens').where('tokenHash', '=', tokenHash).where('expiresAt', '>', now).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function deleteUserPasswordTokens(db: AccountsExecutor, userId: string): Promise<void> {
  await db.deleteFrom('passwordTokens').where('userId', '=', userId).execute();
}

export async function deleteExpiredPasswordTokens(db: AccountsExecutor, now: Date): Promise<number> {
  const result = await db.deleteFrom('passwordTokens').where('expiresAt', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
