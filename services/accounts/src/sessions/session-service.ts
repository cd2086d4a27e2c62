import { deleteExpiredPasswordTokens } from '../users/password-token-repository.js';
import { hashSecretToken, isSecretTokenShaped, newSecretToken } from './secret-token.js';
import { deleteExpiredSessions, deleteSession, extendSession, findLiveSession, insertSession } from './session-repository.js';
import type { AccountsDb } from '../db/database.js';
import { deleteInBatches } from '@comps/shared/db/delete-in-batches';

export interface SessionLifetimes {
  /** A session unused for this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, however much it is used. */
  absoluteMs: number;
}

/** Who is signed in, as every dashboard page sees it. */
export interface SignedInUser {
  userId: string;
  email: string;
  workspaceId: string;
}

export interface ResolvedSession extends SignedInUser {
  /** The cookie's value: the CSRF tokens of this session derive from it. */
  sessionId: string;
  absoluteExpiresAt: Date;
}

/**
 * The idle expiry is written at most this often per session (not on every page), so it may end up to
 * this much earlier than idleMs after the last page: a write per minute rather than per request.
 */
const EXTEND_EVERY_MS = 60_000;

/** A new session for a user who has just signed in: a fresh random id (never one the browser brought). */
export async function startSession(db: AccountsDb, userId: string, now: Date, lifetimes: SessionLifetimes): Promise<{ sessionId: string; absoluteExpiresAt: Date }> {
  const sessionId = newSecretToken();
  const absoluteExpiresAt = new Date(now.getTime() + lifetimes.absoluteMs);
  const expiresAt = new Date(Math.min(now.getTime() + lifetimes.idleMs, absoluteExpiresAt.getTime()));
  await insertSession(db, { idHash: hashSecretToken(sessionId), userId, expiresAt, absoluteExpiresAt });
  return { sessionId, absoluteExpiresAt };
}

/** The signed-in user behind a cookie's session id, or null when it is unknown or has expired; use moves the idle expiry on. */
export async function resolveSession(db: AccountsDb, sessionId: string, now: Date, lifetimes: SessionLifetimes): Promise<ResolvedSession | null> {
  if (!isSecretTokenShaped(sessionId)) return null;
  const idHash = hashSecretToken(sessionId);
  const session = await findLiveSession(db, idHash, now);
  if (!session) return null;
  const idleExpiresAt = new Date(now.getTime() + lifetimes.idleMs);
  if (idleExpiresAt.getTime() - session.expiresAt.getTime() >= EXTEND_EVERY_MS && session.expiresAt < session.absoluteExpiresAt) {
    await extendSession(db, idHash, idleExpiresAt);
  }
  return { sessionId, userId: session.userId, email: session.email, workspaceId: session.workspaceId, absoluteExpiresAt: session.absoluteExpiresAt };
}

/** Sign-out: the session ends on the server, whatever the browser keeps. */
export async function endSession(db: AccountsDb, sessionId: string): Promise<void> {
  if (isSecretTokenShaped(sessionId)) await deleteSession(db, hashSecretToken(sessionId));
}

/** Deletes ended sessions and expired set-password links, in batches. */
export async function purgeExpiredSessions(db: AccountsDb, now: Date): Promise<number> {
  return (await deleteExpiredPasswordTokens(db, now)) + (await deleteInBatches((limit) => deleteExpiredSessions(db, now, limit)));
}
