import { fingerprintHexOf, type KeyAnnouncer } from '@comps/shared/internal/accounts/key-announcements';
import type { Principal } from '@comps/shared/internal/accounts/principal';
import { AppError } from '@comps/shared/errors/app-error';
import { newApiKeyId } from '@comps/shared/ids';
import { quotaSnapshot } from '../ledger/ledger-service.js';
import { effectivePlan } from '../workspaces/effective-plan.js';
import { findWorkspaceWithPlan } from '../workspaces/workspace-repository.js';
import { countActiveKeys, databaseTime, findActiveApiKeyByHash, insertApiKey, keyChangesSince, listActiveKeyHashes, revokeApiKey } from './api-key-repository.js';
import { API_KEY_PATTERN, hashApiKey } from '@comps/shared/api-key-format';
import { generateApiKey } from './api-key-secret.js';
import type { AccountsDb, AccountsExecutor } from '../db/database.js';

export interface IssuedApiKey {
  apiKeyId: string;
  /** The key itself: shown once, never stored. */
  key: string;
  prefix: string;
  lastFour: string;
}

/** A key made: the caller announces it (key-announcements.ts) once it is committed, or deletes it unseen (sign-up). */
export async function issueApiKey(db: AccountsExecutor, workspaceId: string, name: string | null): Promise<IssuedApiKey & { keyHash: string }> {
  const secret = generateApiKey();
  const apiKeyId = newApiKeyId();
  await insertApiKey(db, {
    id: apiKeyId,
    workspaceId,
    keyHash: secret.hash,
    prefix: secret.prefix,
    lastFour: secret.lastFour,
    name,
  });
  return { apiKeyId, key: secret.key, prefix: secret.prefix, lastFour: secret.lastFour, keyHash: secret.hash };
}

/** Another key for a workspace, announced to every api before the caller sees it. */
export async function createApiKey(db: AccountsDb, keys: KeyAnnouncer, workspaceId: string, name: string | null): Promise<IssuedApiKey> {
  if (!(await findWorkspaceWithPlan(db, workspaceId))) {
    throw new AppError('invalid_request', `Unknown workspace ${workspaceId}`);
  }
  const { keyHash, ...issued } = await issueApiKey(db, workspaceId, name);
  await keys.created(keyHash);
  return issued;
}

/**
 * Revokes a key given as the key itself or as its id. With `workspaceId`, only a key of that
 * workspace: another workspace's key is "not found", exactly as a key that does not exist.
 */
export async function revokeKey(db: AccountsDb, keys: KeyAnnouncer, keyOrId: string, now: Date, workspaceId?: string): Promise<{ apiKeyId: string; workspaceId: string }> {
  const match = API_KEY_PATTERN.test(keyOrId) ? { keyHash: hashApiKey(keyOrId) } : { id: keyOrId };
  const revoked = await revokeApiKey(db, match, now, workspaceId);
  if (!revoked) throw new AppError('not_found', 'No active API key matches');
  await keys.revoked(revoked.keyHash);
  return { apiKeyId: revoked.id, workspaceId: revoked.workspaceId };
}

/** The fingerprints of keys made and revoked since a moment (an api's regular catch-up). */
export async function keyChangesOf(db: AccountsDb, since: Date): Promise<{ created: string[]; revoked: string[]; asOf: string }> {
  const changes = await keyChangesSince(db, since);
  return { created: changes.created.map(fingerprintHexOf), revoked: changes.revoked.map(fingerprintHexOf), asOf: changes.asOf.toISOString() };
}

/** A page of active keys' fingerprints (an api's full load). */
export async function keyFingerprints(db: AccountsDb, afterId: string | null, limit: number): Promise<{ fingerprints: string[]; lastId: string | null; total: number | null; asOf: string | null }> {
  const first = afterId === null;
  const asOf = first ? (await databaseTime(db)).toISOString() : null;
  const rows = await listActiveKeyHashes(db, afterId, limit);
  return {
    fingerprints: rows.map((row) => fingerprintHexOf(row.keyHash)),
    lastId: rows.length === limit ? rows.at(-1)!.id : null,
    total: first ? await countActiveKeys(db) : null,
    asOf,
  };
}

/** The caller behind a key hash, with the limits that apply to it; null for an unknown or revoked key. */
export async function authenticateKeyHash(db: AccountsDb, keyHash: string, now: Date): Promise<Principal | null> {
  const key = await findActiveApiKeyByHash(db, keyHash);
  if (!key) return null;
  const workspace = await findWorkspaceWithPlan(db, key.workspaceId);
  if (!workspace) return null;
  const plan = effectivePlan(workspace.plan, workspace.overrides);
  return {
    workspaceId: key.workspaceId,
    apiKeyId: key.id,
    apiKeyPrefix: key.prefix,
    plan,
    quota: await quotaSnapshot(db, key.workspaceId, plan.monthlyQuota, now),
  };
}
