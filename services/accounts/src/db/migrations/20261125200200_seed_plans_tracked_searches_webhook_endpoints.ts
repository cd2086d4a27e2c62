import type { Kysely } from 'kysely';

// Frozen at the figures the tracked searches and webhooks launch with; later changes get migrations of their own.
const PLANS = [
  { id: 'free', tracked_searches: 1, webhook_endpoints: 1 },
  { id: 'starter', tracked_searches: 10, webhook_endpoints: 5 },
  { id: 'pro', tracked_searches: 100, webhook_endpoints: 20 },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const { id, ...limits } of PLANS) {
    await db.updateTable('plans').set(limits).where('id', '=', id).execute();
  }
}

/** Back to the 0 that adding the columns left. */
export async function down(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('plans')
    .set({ tracked_searches: 0, webhook_endpoints: 0 })
    .where('id', 'in', PLANS.map((plan) => plan.id))
    .execute();
}
