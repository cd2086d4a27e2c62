import type { AccountsExecutor } from '../db/database.js';

export interface StoredUser {
  id: string;
  workspaceId: string;
  email: string;
  passwordHash: string | null;
}

export async function insertUser(db: AccountsExecutor, user: { id: string; workspaceId: string; email: string; passwordHash: string | null }): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function findUserByEmail(db: AccountsExecutor, email: string): Promise<StoredUser | undefined> {
  return db.selectFrom('users').select(['id', 'workspaceId', 'email', 'passwordHash']).where('email', '=', email).executeTakeFirst();
}

export async function emailTaken(db: AccountsExecutor, email: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
}

export async function setPasswordHash(db: AccountsExecutor, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ passwordHash }).where('id', '=', userId).execute();
}

export async function workspaceExists(db: AccountsExecutor, workspaceId: string): Promise<boolean> {
  return (await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst()) !== undefined;
}

/** Sign-up's clean-up: the first key createWorkspace makes is never shown to anyone, so it is not kept. */
export async function deleteApiKey(db: AccountsExecutor, apiKeyId: string): Promise<void> {
  await db.deleteFrom('apiKeys').where('id', '=', apiKeyId).execute();
}

/** Undoes a sign-up whose user could not be stored (its keys and everything else go with it). */
export async function deleteWorkspace(db: AccountsExecutor, workspaceId: string): Promise<void> {
  await db.deleteFrom('workspaces').where('id', '=', workspaceId).execute();
}
