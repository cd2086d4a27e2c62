import { ACCOUNTS_MIGRATIONS } from '@comps/accounts/migrations';
import { JOBS_MIGRATIONS } from '@comps/jobs/migrations';
import { migrateToLatest, type MigrationReport } from '@comps/shared/db/migrate';

/**
 * Every service's tables, brought to their newest migration (each service also does its own at boot):
 * for npm start, `npm run migrate`, compose's migrate step, the tests and the benchmarks.
 */
export async function migrateAll(url: string): Promise<MigrationReport> {
  const accounts = await migrateToLatest(url, ACCOUNTS_MIGRATIONS);
  const jobs = await migrateToLatest(url, JOBS_MIGRATIONS);
  return { database: accounts.database, applied: [...accounts.applied, ...jobs.applied] };
}
