import { fileURLToPath } from 'node:url';
import type { MigrationSet } from '@comps/shared/db/migrate';

/** The accounts service's own tables: workspaces, plans, keys, the quota ledger, history, users and sessions; applied by the service at boot. */
export const ACCOUNTS_MIGRATIONS: MigrationSet = { folder: fileURLToPath(new URL('./migrations', import.meta.url)), table: 'kysely_migration' };
