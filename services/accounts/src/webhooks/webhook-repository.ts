import type { Selectable, Updateable } from 'kysely';
import type { AccountsExecutor, WebhookEndpointsTable } from '../db/database.js';

export type StoredWebhookEndpoint = Selectable<WebhookEndpointsTable>;
export type WebhookEndpointPatch = Updateable<Omit<WebhookEndpointsTable, 'id' | 'workspaceId' | 'createdAt'>>;

/** Locks the workspace's row for the rest of the transaction (creations of one workspace go one at a time); false when it does not exist. */
export async function lockWorkspace(db: AccountsExecutor, workspaceId: string): Promise<boolean> {
  const row = await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().executeTakeFirst();
  return row !== undefined;
}

export async function countWorkspaceEndpoints(db: AccountsExecutor, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('webhookEndpoints')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('workspaceId', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertEndpoint(db: AccountsExecutor, endpoint: StoredWebhookEndpoint): Promise<void> {
  await db.insertInto('webhookEndpoints').values(endpoint).execute();
}

/** Newest first. */
export async function listWorkspaceEndpoints(db: AccountsExecutor, workspaceId: string): Promise<StoredWebhookEndpoint[]> {
  return db
    .selectFrom('webhookEndpoints')
    .selectAll()
    .where('workspaceId', '=', workspaceId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** An endpoint by id; with `lock`, its row is locked for the rest of the transaction. */
export async function findEndpoint(db: AccountsExecutor, id: string, options: { workspaceId?: string; lock?: boolean } = {}): Promise<StoredWebhookEndpoint | undefined> {
  let query = db.selectFrom('webhookEndpoints').selectAll().where('id', '=', id);
  if (options.workspaceId !== undefined) query = query.where('workspaceId', '=', options.workspaceId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateEndpoint(db: AccountsExecutor, id: string, patch: WebhookEndpointPatch): Promise<void> {
  await db.updateTable('webhookEndpoints').set(patch).where('id', '=', id).execute();
}

/** Forgets a previous secret past its expiry (when it still is the one read). */
export async function clearExpiredPreviousSecret(db: AccountsExecutor, id: string, previousSecret: string, now: Date): Promise<void> {
  await db
    .updateTable('webhookEndpoints')
    .set({ previousSecret: null, previousSecretExpiresAt: null })
    .where('id', '=', id)
    .where('previousSecret', '=', previousSecret)
    .where('previousSecretExpiresAt', '<=', now)
    .execute();
}

/** True when a row was deleted. */
export async function deleteEndpoint(db: AccountsExecutor, workspaceId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhookEndpoints').where('id', '=', id).where('workspaceId', '=', workspaceId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The ids of the workspace's enabled endpoints subscribed to `eventType`, oldest first. */
export async function listSubscriberIds(db: AccountsExecutor, workspaceId: string, eventType: string): Promise<string[]> {
  const rows = await db
    .selectFrom('webhookEndpoints')
    .select('id')
    .where('workspaceId', '=', workspaceId)
    .where('status', '=', 'enabled')
    .where((eb) => eb(eb.fn<number>('find_in_set', [eb.val(eventType), eb.ref('events')]), '>', 0))
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}
