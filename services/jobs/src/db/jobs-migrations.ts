import { fileURLToPath } from 'node:url';
import type { MigrationSet } from '@comps/shared/db/migrate';

/** The jobs service's own tables: jobs, their pages and items; applied by the service at boot. */
export const JOBS_MIGRATIONS: MigrationSet = { folder: fileURLToPath(new URL('./migrations', import.meta.url)), table: 'jobs_migration' };
