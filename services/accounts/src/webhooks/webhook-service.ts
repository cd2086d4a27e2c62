import { WEBHOOK_LIMITS, type DisabledReason, type Webhook, type WebhookCreate, type WebhookEventType, type WebhookStatus, type WebhookWithSecret } from '@comps/shared/contract/webhook';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { repeatedCreationOf } from '@comps/shared/internal/created-once';
import { checkWebhookUrl } from '@comps/shared/webhooks/address-policy';
import { newWebhookSecret, signatureHeader } from '@comps/shared/webhooks/signature';
import { effectivePlan } from '../workspaces/effective-plan.js';
import { findWorkspaceWithPlan } from '../workspaces/workspace-repository.js';
import type { WebhookContext } from './webhook-context.js';
import {
  clearExpiredPreviousSecret,
  countWorkspaceEndpoints,
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listSubscriberIds,
  listWorkspaceEndpoints,
  lockWorkspace,
  updateEndpoint,
  type StoredWebhookEndpoint,
} from './webhook-repository.js';
import { descriptionColumn, disabledReasonAfter, eventsColumn, patchForChanges, patchForOutcome, webhookOf, type AttemptOutcome, type EndpointChanges } from './webhook-rules.js';

function notFound(webhookId: string): AppError {
  return new AppError('webhook_not_found', `No webhook endpoint ${webhookId}`);
}

/**
 * Registers an endpoint with the id its caller made: its URL passes the address rules (checked
 * before the transaction: a DNS answer may take a while), then, under a lock of the workspace's
 * row, the plan's number is checked and the endpoint inserted, so that concurrent creations never
 * exceed it. The secret is in this answer only; it is stored sealed. An endpoint that already has
 * the id is answered as it is, with its secret (looked for first, and again under the lock): the
 * caller made this call again after the first timed out, and that one may have created it (a
 * second would receive every event twice).
 */
export async function createWebhook(ctx: WebhookContext, workspaceId: string, id: string, body: WebhookCreate): Promise<WebhookWithSecret> {
  // Made already: answered before the URL's check, whose DNS answer may refuse now what it took then.
  const earlier = repeatedRegistration(await findEndpoint(ctx.db, id), workspaceId, body, ctx.now());
  if (earlier) return { ...webhookOf(earlier), secret: ctx.box.open(earlier.secret, id) };
  await checkWebhookUrl(body.url, ctx.policy, ctx.resolve);
  const secret = newWebhookSecret();
  const now = ctx.now();
  const row: StoredWebhookEndpoint = {
    id,
    workspaceId,
    url: body.url,
    events: eventsColumn(body.events),
    description: descriptionColumn(body.description),
    status: 'enabled',
    disabledReason: null,
    failingSince: null,
    secret: ctx.box.seal(secret, id),
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  return withTransaction(ctx.db, async (trx) => {
    if (!(await lockWorkspace(trx, workspaceId))) throw new AppError('invalid_request', `Unknown workspace ${workspaceId}`);
    const existing = repeatedRegistration(await findEndpoint(trx, id), workspaceId, body, now);
    if (existing) return { ...webhookOf(existing), secret: ctx.box.open(existing.secret, id) };
    const workspace = await findWorkspaceWithPlan(trx, workspaceId);
    if (!workspace) throw new AppError('invalid_request', `Unknown workspace ${workspaceId}`);
    const limit = effectivePlan(workspace.plan, workspace.overrides).webhookEndpoints;
    if ((await countWorkspaceEndpoints(trx, workspaceId)) >= limit) {
      throw new AppError('webhook_limit', `The plan allows ${limit} webhook endpoint${limit === 1 ? '' : 's'}; delete one or change plans`);
    }
    await insertEndpoint(trx, row);
    return { ...webhookOf(row), secret };
  });
}

/** The endpoint a registration made again with its id answers (see repeatedCreationOf): the same URL; its secret leaves only then. */
function repeatedRegistration(row: StoredWebhookEndpoint | undefined, workspaceId: string, body: WebhookCreate, now: Date): StoredWebhookEndpoint | undefined {
  return repeatedCreationOf(row, { workspaceId, now, matches: (held) => held.url === body.url });
}

export async function listWebhooks(ctx: WebhookContext, workspaceId: string): Promise<{ webhooks: Webhook[] }> {
  return { webhooks: (await listWorkspaceEndpoints(ctx.db, workspaceId)).map(webhookOf) };
}

export async function getWebhook(ctx: WebhookContext, workspaceId: string, webhookId: string): Promise<Webhook> {
  const row = await findEndpoint(ctx.db, webhookId, { workspaceId });
  if (!row) throw notFound(webhookId);
  return webhookOf(row);
}

/** A new URL passes the address rules again; see patchForChanges for the status. */
export async function updateWebhook(ctx: WebhookContext, workspaceId: string, webhookId: string, changes: EndpointChanges): Promise<Webhook> {
  const before = await findEndpoint(ctx.db, webhookId, { workspaceId });
  if (!before) throw notFound(webhookId);
  if (changes.url !== undefined && changes.url !== before.url) await checkWebhookUrl(changes.url, ctx.policy, ctx.resolve);
  return withTransaction(ctx.db, async (trx) => {
    const row = await findEndpoint(trx, webhookId, { workspaceId, lock: true });
    if (!row) throw notFound(webhookId);
    const patch = patchForChanges(changes, ctx.now());
    await updateEndpoint(trx, webhookId, patch);
    return webhookOf({ ...row, ...patch } as StoredWebhookEndpoint);
  });
}

export async function deleteWebhook(ctx: WebhookContext, workspaceId: string, webhookId: string): Promise<{ webhookId: string; deleted: true }> {
  if (!(await deleteEndpoint(ctx.db, workspaceId, webhookId))) throw notFound(webhookId);
  return { webhookId, deleted: true };
}

/**
 * A new secret, in this answer only; the current one becomes the previous one and keeps signing for
 * `rotationOverlapMs` (24 hours). A previous secret still in its overlap is dropped: two rotations in
 * a row leave the last two secrets.
 */
export async function rotateWebhookSecret(
  ctx: WebhookContext,
  workspaceId: string,
  webhookId: string,
): Promise<{ webhookId: string; secret: string; previousSecretExpiresAt: string }> {
  const secret = newWebhookSecret();
  const sealed = ctx.box.seal(secret, webhookId);
  return withTransaction(ctx.db, async (trx) => {
    const row = await findEndpoint(trx, webhookId, { workspaceId, lock: true });
    if (!row) throw notFound(webhookId);
    const now = ctx.now();
    const expiresAt = new Date(now.getTime() + WEBHOOK_LIMITS.rotationOverlapMs);
    // A current secret that no longer opens (the key was lost or changed) is not kept to sign alongside the new one.
    const previousOpens = opens(ctx, row.secret, row.id);
    await updateEndpoint(trx, webhookId, { secret: sealed, previousSecret: previousOpens ? row.secret : null, previousSecretExpiresAt: previousOpens ? expiresAt : null, updatedAt: now });
    return { webhookId, secret, previousSecretExpiresAt: expiresAt.toISOString() };
  });
}

/** Whether a sealed secret opens with this service's key (the new secret signs alone when the old one cannot). */
function opens(ctx: WebhookContext, sealed: string, webhookId: string): boolean {
  try {
    ctx.box.open(sealed, webhookId);
    return true;
  } catch {
    return false;
  }
}

export async function webhookSubscribers(ctx: WebhookContext, workspaceId: string, eventType: WebhookEventType): Promise<{ webhookIds: string[] }> {
  return { webhookIds: await listSubscriberIds(ctx.db, workspaceId, eventType) };
}

export interface SignInput {
  webhookId: string;
  messageId: string;
  timestamp: number;
  body: string;
}

/**
 * For a delivery attempt: the endpoint's URL and status, and the message's `webhook-signature` with
 * the current secret and, during a rotation's overlap, the previous one too. A previous secret past
 * its overlap is forgotten here. Null when the endpoint is gone. A secret that does not open (another
 * key, a row tampered with) fails the call: nothing is signed with a secret that is not the endpoint's.
 */
export async function signWebhookMessage(ctx: WebhookContext, input: SignInput): Promise<{ workspaceId: string; url: string; status: WebhookStatus; signature: string; failing: boolean } | null> {
  const row = await findEndpoint(ctx.db, input.webhookId);
  if (!row) return null;
  const now = ctx.now();
  const secrets = [ctx.box.open(row.secret, row.id)];
  if (row.previousSecret !== null) {
    if (row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt.getTime() > now.getTime() && opens(ctx, row.previousSecret, row.id)) {
      secrets.push(ctx.box.open(row.previousSecret, row.id));
    } else {
      await clearExpiredPreviousSecret(ctx.db, row.id, row.previousSecret, now);
    }
  }
  return { workspaceId: row.workspaceId, url: row.url, status: row.status, signature: signatureHeader(secrets, input.messageId, input.timestamp, input.body), failing: row.failingSince !== null };
}

/**
 * An attempt's outcome (patchForOutcome decides). Most outcomes change nothing (a success while
 * nothing fails): those are answered from one read; a change is made under the row's lock.
 */
export async function noteWebhookOutcome(ctx: WebhookContext, webhookId: string, outcome: AttemptOutcome): Promise<{ disabledReason: DisabledReason | null }> {
  const seen = await findEndpoint(ctx.db, webhookId);
  if (!seen) throw notFound(webhookId);
  if (patchForOutcome(seen, outcome, ctx.now()) === null) return { disabledReason: disabledReasonAfter(seen, null) };
  return withTransaction(ctx.db, async (trx) => {
    const row = await findEndpoint(trx, webhookId, { lock: true });
    if (!row) throw notFound(webhookId);
    const patch = patchForOutcome(row, outcome, ctx.now());
    if (patch) await updateEndpoint(trx, webhookId, patch);
    return { disabledReason: disabledReasonAfter(row, patch) };
  });
}
