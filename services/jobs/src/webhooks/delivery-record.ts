import type { Delivery } from '@comps/shared/contract/webhook';
import type { DeliveryRow } from '../db/database.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function deliveryOf(row: DeliveryRow): Delivery {
  return {
    deliveryId: row.id,
    eventType: row.eventType,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
    attempts: row.attempts,
    lastAttemptAt: iso(row.lastAttemptAt),
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: iso(row.nextAttemptAt),
  };
}
