import { WEBHOOK_LIMITS } from '@comps/shared/contract/webhook';
import type { JobsDb } from '../db/database.js';
import { deleteDeliveriesBefore } from './delivery-repository.js';

/** Deletes deliveries past their 30 days, in batches; returns how many. */
export async function purgeDeliveries(db: JobsDb, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_LIMITS.deliveryRetentionDays * 86_400_000);
  let total = 0;
  for (;;) {
    const deleted = await deleteDeliveriesBefore(db, cutoff, 5000);
    total += deleted;
    if (deleted < 5000) return total;
  }
}
