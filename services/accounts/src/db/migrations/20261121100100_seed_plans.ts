import type { Kysely } from 'kysely';

// Frozen at the launch prices; later plan changes get migrations of their own.
const PLANS = [
  { id: 'free', name: 'Free', monthly_quota: 100, rate_limit_requests: 10, concurrency: 1 },
  { id: 'starter', name: 'Starter', monthly_quota: 10_000, rate_limit_requests: 60, concurrency: 5 },
  { id: 'pro', name: 'Pro', monthly_quota: 100_000, rate_limit_requests: 300, concurrency: 20 },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('plans')
    .values(PLANS.map((plan) => ({ ...plan, rate_limit_window_seconds: 60, active_jobs: 1 })))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('plans').where('id', 'in', PLANS.map((plan) => plan.id)).execute();
}
