import type { WebhookEventType } from '@comps/shared/contract/webhook';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { newDeliveryId, newTaskId } from '@comps/shared/ids';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { JobsDb } from '../db/database.js';
import { insertTasks } from '../tasks/task-repository.js';
import { insertDeliveries, listUndispatchedEvents, lockUndispatchedEvents, markDispatched } from './delivery-repository.js';
import { DELIVERY_TASK, deliveryTaskKey } from './delivery-task.js';
import { deliveryBody, webhookTypeOf } from './event-payload.js';

const BATCH = 200;

export interface DispatchDeps {
  db: JobsDb;
  accounts: Pick<AccountsClient, 'webhooks'>;
  now: () => Date;
}

/**
 * Turns the events written when jobs and runs ended into webhook deliveries, one per subscribed
 * endpoint, each with the task that attempts it. The subscribers are asked of accounts first, then
 * the events are locked (SKIP LOCKED), their deliveries and tasks inserted and the events marked, in
 * one transaction: an event is dispatched once, whatever the number of jobs processes, and never
 * lost (an event not marked is dispatched at the next turn). Returns how many deliveries it made.
 */
export async function dispatchEvents(deps: DispatchDeps, signal: AbortSignal): Promise<number> {
  let made = 0;
  while (!signal.aborted) {
    const events = await listUndispatchedEvents(deps.db, BATCH);
    if (events.length === 0) return made;
    const subscribers = new Map<string, string[]>();
    for (const event of events) {
      const type = webhookTypeOf(event);
      const key = `${event.workspaceId}|${type}`;
      if (type && !subscribers.has(key)) subscribers.set(key, (await deps.accounts.webhooks.subscribers.query({ workspaceId: event.workspaceId, eventType: type })).webhookIds);
    }
    const now = deps.now();
    const batch = await withTransaction(deps.db, async (trx) => {
      const locked = new Set(await lockUndispatchedEvents(trx, events.map((event) => event.id)));
      const deliveries = events
        .filter((event) => locked.has(event.id))
        .flatMap((event) => {
          const type = webhookTypeOf(event) as WebhookEventType | null;
          const body = type ? deliveryBody(type, event.createdAt, JSON.parse(event.payload)) : '';
          return (type ? (subscribers.get(`${event.workspaceId}|${type}`) ?? []) : []).map((webhookId) => ({
            id: newDeliveryId(),
            webhookId,
            workspaceId: event.workspaceId,
            eventType: type!,
            eventId: event.id,
            body,
            status: 'pending' as const,
            nextAttemptAt: now,
            lastAttemptAt: null,
            lastStatusCode: null,
            lastError: null,
            createdAt: now,
          }));
        });
      await insertDeliveries(trx, deliveries);
      await insertTasks(trx, deliveries.map((delivery) => ({ id: newTaskId(), kind: DELIVERY_TASK, taskKey: deliveryTaskKey(delivery.id), payload: { deliveryId: delivery.id }, runAt: now, createdAt: now })));
      await markDispatched(trx, [...locked], now);
      return { made: deliveries.length, locked: locked.size };
    });
    made += batch.made;
    // Events another dispatcher holds are its to dispatch; a short batch was the last.
    if (batch.locked === 0 || events.length < BATCH) return made;
  }
  return made;
}
