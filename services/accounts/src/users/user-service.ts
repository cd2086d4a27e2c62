import { isDuplicateKey } from '@comps/shared/db/database-errors';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { hashSecretToken, isSecretTokenShaped, newSecretToken } from '../sessions/secret-token.js';
import { deleteUserSessions } from '../sessions/session-repository.js';
import { createWorkspace } from '../workspaces/workspace-service.js';
import { isPlausibleEmail, normalizeEmail } from './email-address.js';
import { hashPassword, needsRehash, verifyPassword } from './password-hash.js';
import { passwordProblem } from './password-policy.js';
import {
  consumePasswordToken,
  deleteUserPasswordTokens,
  findPasswordTokenUser,
  insertPasswordToken,
} from './password-token-repository.js';
import { newUserId } from './user-id.js';
import type { AccountsDb } from '../db/database.js';
import {
  deleteApiKey,
  deleteWorkspace,
  emailTaken,
  findUserByEmail,
  insertUser,
  setPasswordHash,
  workspaceExists,
  type StoredUser,
} from './user-repository.js';

export type UserProblem = 'invalid_email' | 'weak_password' | 'email_taken';

/** A refusal the person can act on; the message is what the page shows. */
export interface Refusal<P extends string> {
  ok: false;
  problem: P;
  message: string;
}

const refuse = <P extends string>(problem: P, message: string): Refusal<P> => ({ ok: false, problem, message });

const EMAIL_TAKEN = 'An account with this e-mail address already exists. Sign in instead.';

function emailProblem(email: string): Refusal<'invalid_email'> | null {
  return isPlausibleEmail(email) ? null : refuse('invalid_email', 'Enter a valid e-mail address, like name@example.com.');
}

/**
 * Open sign-up: a new workspace on the free plan and its first user. The workspace is made by
 * createWorkspace, whose first API key nobody has seen: it is deleted with the user's insertion, so
 * a new account starts with no key and makes its first on the keys page, where it is shown once.
 * A sign-up that loses a race for the e-mail address removes the workspace it made.
 */
export async function signUp(db: AccountsDb, input: { email: string; password: string }): Promise<{ ok: true; userId: string; workspaceId: string } | Refusal<UserProblem>> {
  const email = normalizeEmail(input.email);
  const invalid = emailProblem(email);
  if (invalid) return invalid;
  const weak = passwordProblem(input.password, email);
  if (weak) return refuse('weak_password', weak);
  if (await emailTaken(db, email)) return refuse('email_taken', EMAIL_TAKEN);

  const passwordHash = await hashPassword(input.password);
  const created = await createWorkspace(db, { name: email, planId: 'free' });
  const userId = newUserId();
  try {
    await withTransaction(db, async (trx) => {
      await insertUser(trx, { id: userId, workspaceId: created.workspaceId, email, passwordHash });
      await deleteApiKey(trx, created.apiKey.apiKeyId);
    });
  } catch (error) {
    await deleteWorkspace(db, created.workspaceId);
    if (isDuplicateKey(error)) return refuse('email_taken', EMAIL_TAKEN);
    throw error;
  }
  return { ok: true, userId, workspaceId: created.workspaceId };
}

/**
 * Whom a sign-in names: the user the database finds for the address, if any, and the name the
 * throttle counts it under. The database compares addresses as its collation does (case and accents
 * folded), so a known account is counted by its id, whatever spelling found it; an unknown address
 * by itself.
 */
export async function signInAccountOf(db: AccountsDb, email: string): Promise<{ account: string; user: StoredUser | undefined }> {
  const normalized = normalizeEmail(email);
  const user = normalized ? await findUserByEmail(db, normalized) : undefined;
  return { account: user ? `user:${user.id}` : `email:${normalized}`, user };
}

/** The user if the password is theirs (a missing user costs a hash all the same: the answer never tells which exist). */
export async function checkPassword(db: AccountsDb, user: StoredUser | undefined, password: string): Promise<StoredUser | null> {
  if (!(await verifyPassword(password, user?.passwordHash))) return null;
  if (needsRehash(user!.passwordHash!)) await setPasswordHash(db, user!.id, await hashPassword(password));
  return user!;
}

export interface PasswordLink {
  userId: string;
  email: string;
  workspaceId: string;
  /** For the set-password link only: stored as a hash, shown once. */
  token: string;
  expiresAt: Date;
}

async function issuePasswordToken(db: AccountsDb, user: { id: string }, now: Date, lifetimeMs: number): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + lifetimeMs);
  await insertPasswordToken(db, { tokenHash: hashSecretToken(token), userId: user.id, expiresAt });
  return { token, expiresAt };
}

/** An operator adds a user to a workspace; the user chooses a password through the link (no password is sent around). */
export async function createUserWithLink(db: AccountsDb, input: { email: string; workspaceId: string }, now: Date, lifetimeMs: number): Promise<PasswordLink> {
  const email = normalizeEmail(input.email);
  if (emailProblem(email)) throw new AppError('invalid_request', `Not a valid e-mail address: ${email}`);
  if (!(await workspaceExists(db, input.workspaceId))) throw new AppError('invalid_request', `Unknown workspace ${input.workspaceId}`);
  const userId = newUserId();
  try {
    await insertUser(db, { id: userId, workspaceId: input.workspaceId, email, passwordHash: null });
  } catch (error) {
    if (isDuplicateKey(error)) throw new AppError('invalid_request', `A user with the e-mail address ${email} already exists`);
    throw error;
  }
  return { userId, email, workspaceId: input.workspaceId, ...(await issuePasswordToken(db, { id: userId }, now, lifetimeMs)) };
}

/** A new set-password link for an existing user (a forgotten password, or a link that expired). */
export async function issuePasswordLink(db: AccountsDb, input: { email: string }, now: Date, lifetimeMs: number): Promise<PasswordLink> {
  const user = await findUserByEmail(db, normalizeEmail(input.email));
  if (!user) throw new AppError('invalid_request', `No user with the e-mail address ${normalizeEmail(input.email)}`);
  return { userId: user.id, email: user.email, workspaceId: user.workspaceId, ...(await issuePasswordToken(db, user, now, lifetimeMs)) };
}

/** Whom a set-password link is for, while it is valid. */
export async function passwordLinkUser(db: AccountsDb, token: string, now: Date): Promise<{ userId: string; email: string } | null> {
  if (!isSecretTokenShaped(token)) return null;
  return (await findPasswordTokenUser(db, hashSecretToken(token), now)) ?? null;
}

const INVALID_LINK = 'This link is not valid any more: it was used already or has expired. Ask your administrator for a new one.';

/**
 * Sets the password through a link, once: the token is used up, every other link and every session
 * of the user end (whoever held the old password is signed out).
 */
export async function setPasswordWithLink(db: AccountsDb, input: { token: string; password: string }, now: Date): Promise<{ ok: true; userId: string } | Refusal<'invalid_link' | 'weak_password'>> {
  const user = await passwordLinkUser(db, input.token, now);
  if (!user) return refuse('invalid_link', INVALID_LINK);
  const weak = passwordProblem(input.password, user.email);
  if (weak) return refuse('weak_password', weak);
  const passwordHash = await hashPassword(input.password);
  const changed = await withTransaction(db, async (trx) => {
    if (!(await consumePasswordToken(trx, hashSecretToken(input.token), now))) return false;
    await setPasswordHash(trx, user.userId, passwordHash);
    await deleteUserPasswordTokens(trx, user.userId);
    await deleteUserSessions(trx, user.userId);
    return true;
  });
  return changed ? { ok: true, userId: user.userId } : refuse('invalid_link', INVALID_LINK);
}
