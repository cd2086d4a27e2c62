import { WEBHOOK_LIMITS } from '@comps/shared/contract/webhook';
import type { JobsDb } from '../db/database.js';
import { deleteDeliveriesBefore } from './delivery-repository.js';
import { deleteInBatches } from '@comps/shared/db/delete-in-batches';

/** Deletes deliveries past their 30 days, in batches; returns how many. */
export async function purgeDeliveries(db: JobsDb, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_LIMITS.deliveryRetentionDays * 86_400_000);
  return deleteInBatches((limit) => deleteDeliveriesBefore(db, cutoff, limit));
}
