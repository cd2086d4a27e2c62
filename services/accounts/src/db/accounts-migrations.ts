import type { MigrationSet } from '@comps/shared/db/migrate';
import * as m20261121100000 from './migrations/20261121100000_create_plans.js';
import * as m20261121100100 from './migrations/20261121100100_seed_plans.js';
import * as m20261121100200 from './migrations/20261121100200_create_workspaces.js';
import * as m20261121100300 from './migrations/20261121100300_create_users.js';
import * as m20261121100400 from './migrations/20261121100400_create_api_keys.js';
import * as m20261121100500 from './migrations/20261121100500_create_usage_counters.js';
import * as m20261121100600 from './migrations/20261121100600_create_usage_reservations.js';
import * as m20261121100700 from './migrations/20261121100700_index_usage_reservations_expiry.js';
import * as m20261121100800 from './migrations/20261121100800_create_request_history.js';
import * as m20261121100900 from './migrations/20261121100900_index_request_history_workspace.js';
import * as m20261121101000 from './migrations/20261121101000_index_request_history_created.js';
import * as m20261121120000 from './migrations/20261121120000_create_sessions.js';
import * as m20261121120100 from './migrations/20261121120100_index_sessions_expiry.js';
import * as m20261121120200 from './migrations/20261121120200_create_password_tokens.js';
import * as m20261121120300 from './migrations/20261121120300_index_request_history_api_key.js';
import * as m20261122010000 from './migrations/20261122010000_index_usage_reservations_created.js';
import * as m20261122020000 from './migrations/20261122020000_create_reserve_quota_unit.js';
import * as m20261124100000 from './migrations/20261124100000_index_api_keys_created.js';
import * as m20261124100100 from './migrations/20261124100100_index_api_keys_revoked.js';
import * as m20261125200000 from './migrations/20261125200000_add_plans_tracked_searches.js';
import * as m20261125200100 from './migrations/20261125200100_add_plans_webhook_endpoints.js';
import * as m20261125200200 from './migrations/20261125200200_seed_plans_tracked_searches_webhook_endpoints.js';
import * as m20261125200300 from './migrations/20261125200300_add_workspaces_tracked_searches_override.js';
import * as m20261125200400 from './migrations/20261125200400_add_workspaces_webhook_endpoints_override.js';
import * as m20261125300000 from './migrations/20261125300000_create_webhook_endpoints.js';
import * as m20261125300100 from './migrations/20261125300100_index_webhook_endpoints_workspace_created.js';
import * as m20261125400000 from './migrations/20261125400000_create_quota_allowances.js';
import * as m20261125400100 from './migrations/20261125400100_index_quota_allowances_expiry.js';
import * as m20261125400200 from './migrations/20261125400200_add_usage_reservations_allowance_id.js';
import * as m20261125400300 from './migrations/20261125400300_replace_reserve_quota_unit_for_allowances.js';
import * as m20261125500000 from './migrations/20261125500000_replace_reserve_quota_unit_again_when_room.js';

/**
 * The accounts service's own tables: workspaces, plans, keys, the quota ledger, history, users and sessions; applied by
 * the service at boot. Listed here, each by its file's name (what the migration table records), rather than read from
 * the folder at run time: the bundle then holds them with the one Kysely it runs, and a start reads no folder. A new
 * migration is added to the list; a test holds the list to the folder.
 */
export const ACCOUNTS_MIGRATIONS: MigrationSet = {
  table: 'kysely_migration',
  migrations: {
    '20261121100000_create_plans': m20261121100000,
    '20261121100100_seed_plans': m20261121100100,
    '20261121100200_create_workspaces': m20261121100200,
    '20261121100300_create_users': m20261121100300,
    '20261121100400_create_api_keys': m20261121100400,
    '20261121100500_create_usage_counters': m20261121100500,
    '20261121100600_create_usage_reservations': m20261121100600,
    '20261121100700_index_usage_reservations_expiry': m20261121100700,
    '20261121100800_create_request_history': m20261121100800,
    '20261121100900_index_request_history_workspace': m20261121100900,
    '20261121101000_index_request_history_created': m20261121101000,
    '20261121120000_create_sessions': m20261121120000,
    '20261121120100_index_sessions_expiry': m20261121120100,
    '20261121120200_create_password_tokens': m20261121120200,
    '20261121120300_index_request_history_api_key': m20261121120300,
    '20261122010000_index_usage_reservations_created': m20261122010000,
    '20261122020000_create_reserve_quota_unit': m20261122020000,
    '20261124100000_index_api_keys_created': m20261124100000,
    '20261124100100_index_api_keys_revoked': m20261124100100,
    '20261125200000_add_plans_tracked_searches': m20261125200000,
    '20261125200100_add_plans_webhook_endpoints': m20261125200100,
    '20261125200200_seed_plans_tracked_searches_webhook_endpoints': m20261125200200,
    '20261125200300_add_workspaces_tracked_searches_override': m20261125200300,
    '20261125200400_add_workspaces_webhook_endpoints_override': m20261125200400,
    '20261125300000_create_webhook_endpoints': m20261125300000,
    '20261125300100_index_webhook_endpoints_workspace_created': m20261125300100,
    '20261125400000_create_quota_allowances': m20261125400000,
    '20261125400100_index_quota_allowances_expiry': m20261125400100,
    '20261125400200_add_usage_reservations_allowance_id': m20261125400200,
    '20261125400300_replace_reserve_quota_unit_for_allowances': m20261125400300,
    '20261125500000_replace_reserve_quota_unit_again_when_room': m20261125500000,
  },
};
