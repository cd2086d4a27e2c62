import { TEST_EVENT_TYPE, type DeliveryEventType, type WebhookEventType } from '@comps/shared/contract/webhook';
import { JOB_ENDED } from '../jobs/finish-job.js';
import { RUN_COMPLETED, RUN_FAILED } from '../tracked/finish-run.js';

/** An event as the events table keeps it. */
export interface StoredEvent {
  id: string;
  type: string;
  payload: string;
  createdAt: Date;
}

/**
 * The webhook event type an event is delivered as: a job's end by how it ended (`job.completed`,
 * `job.failed`, `job.cancelled`), a run's end as it is; null for an event no endpoint can subscribe to.
 */
export function webhookTypeOf(event: Pick<StoredEvent, 'type' | 'payload'>): WebhookEventType | null {
  if (event.type === JOB_ENDED) {
    const { status } = JSON.parse(event.payload) as { status: string };
    return status === 'completed' ? 'job.completed' : status === 'failed' ? 'job.failed' : status === 'cancelled' ? 'job.cancelled' : null;
  }
  if (event.type === RUN_COMPLETED) return 'trackedSearch.run.completed';
  if (event.type === RUN_FAILED) return 'trackedSearch.run.failed';
  return null;
}

/**
 * The body every attempt of a delivery sends, made once: `{ type, timestamp, data }` with the job
 * record without items, or the tracked search with its run, as the event recorded them.
 */
export function deliveryBody(type: DeliveryEventType, occurredAt: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: occurredAt.toISOString(), data });
}

/** The body of a test delivery. */
export function testBody(webhookId: string, at: Date): string {
  return deliveryBody(TEST_EVENT_TYPE, at, { webhookId, message: 'A test delivery: this endpoint receives and verifies webhooks.' });
}
