import type { Delivery } from '@comps/shared/contract/webhook';
import type { DeliveryRow } from '../db/database.js';
import { isoOrNull } from '../db/iso-time.js';

export function deliveryOf(row: DeliveryRow): Delivery {
  return {
    deliveryId: row.id,
    eventType: row.eventType,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
    attempts: row.attempts,
    lastAttemptAt: isoOrNull(row.lastAttemptAt),
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: isoOrNull(row.nextAttemptAt),
  };
}
