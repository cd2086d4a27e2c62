import { TEST_EVENT_TYPE, WEBHOOK_LIMITS, type Delivery, type DeliveryList } from '@comps/shared/contract/webhook';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { newDeliveryId, newTaskId } from '@comps/shared/ids';
import type { JobsDb } from '../db/database.js';
import { insertTask, runKeyedTaskNow } from '../tasks/task-repository.js';
import { findDelivery, insertDeliveries, listDeliveries, lockDelivery, markPending } from './delivery-repository.js';
import { deliveryOf } from './delivery-record.js';
import { DELIVERY_TASK, deliveryTaskKey } from './delivery-task.js';
import { testBody } from './event-payload.js';

export interface DeliveryServiceDeps {
  db: JobsDb;
  now: () => Date;
  /** Tells every worker (this process's and the others') that work is waiting. */
  wake: () => void;
}

const DAY_MS = 86_400_000;
const CURSOR = /^msg_[0-9A-HJKMNP-TV-Z]{26}$/;

function notFound(): AppError {
  return new AppError('delivery_not_found', 'No such delivery');
}

/**
 * An endpoint's deliveries of the last 30 days, newest first, a page at a time. The caller (the api,
 * the dashboard) has checked with accounts that the workspace owns the endpoint.
 */
export async function listEndpointDeliveries(deps: DeliveryServiceDeps, input: { workspaceId: string; webhookId: string; limit: number; cursor?: string | undefined }): Promise<DeliveryList> {
  const before = input.cursor ? Buffer.from(input.cursor, 'base64url').toString('latin1') : undefined;
  if (before !== undefined && !CURSOR.test(before)) {
    throw new AppError('invalid_request', 'Invalid query parameters', { details: [{ path: 'cursor', message: 'must be a nextCursor from an earlier page' }] });
  }
  const since = new Date(deps.now().getTime() - WEBHOOK_LIMITS.deliveryRetentionDays * DAY_MS);
  const rows = await listDeliveries(deps.db, input.webhookId, input.workspaceId, since, before, input.limit + 1);
  const page = rows.slice(0, input.limit);
  return { deliveries: page.map(deliveryOf), nextCursor: rows.length > input.limit ? Buffer.from(page.at(-1)!.id).toString('base64url') : null };
}

/** A `webhook.test` delivery to the endpoint, attempted now. */
export async function sendTestDelivery(deps: DeliveryServiceDeps, input: { workspaceId: string; webhookId: string }): Promise<Delivery> {
  const now = deps.now();
  const id = newDeliveryId();
  await withTransaction(deps.db, async (trx) => {
    await insertDeliveries(trx, [
      { id, webhookId: input.webhookId, workspaceId: input.workspaceId, eventType: TEST_EVENT_TYPE, eventId: null, body: testBody(input.webhookId, now), status: 'pending', nextAttemptAt: now, lastAttemptAt: null, lastStatusCode: null, lastError: null, createdAt: now },
    ]);
    await insertTask(trx, { id: newTaskId(), kind: DELIVERY_TASK, taskKey: deliveryTaskKey(id), payload: { deliveryId: id }, runAt: now, createdAt: now });
  });
  deps.wake();
  return deliveryOf((await findDelivery(deps.db, id))!);
}

/**
 * Another attempt of a delivery, now: a pending one is attempted at once rather than at its time, a
 * failed or succeeded one is attempted again (its schedule starts again from its attempts so far).
 */
export async function retryDelivery(deps: DeliveryServiceDeps, input: { workspaceId: string; webhookId: string; deliveryId: string }): Promise<Delivery> {
  const now = deps.now();
  await withTransaction(deps.db, async (trx) => {
    const delivery = await lockDelivery(trx, input.deliveryId);
    if (!delivery || delivery.workspaceId !== input.workspaceId || delivery.webhookId !== input.webhookId) throw notFound();
    await markPending(trx, delivery.id, now);
    // The task is there while the delivery is pending (due now), gone once it ended (made again).
    await insertTask(trx, { id: newTaskId(), kind: DELIVERY_TASK, taskKey: deliveryTaskKey(delivery.id), payload: { deliveryId: delivery.id }, runAt: now, createdAt: now });
    await runKeyedTaskNow(trx, deliveryTaskKey(delivery.id), now);
  });
  deps.wake();
  return deliveryOf((await findDelivery(deps.db, input.deliveryId))!);
}
