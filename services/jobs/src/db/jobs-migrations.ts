import type { MigrationSet } from '@comps/shared/db/migrate';
import * as m20261122000000 from './migrations/20261122000000_create_jobs.js';
import * as m20261122000100 from './migrations/20261122000100_index_jobs_claim.js';
import * as m20261122000200 from './migrations/20261122000200_index_jobs_workspace.js';
import * as m20261122000300 from './migrations/20261122000300_unique_jobs_active_workspace.js';
import * as m20261122000400 from './migrations/20261122000400_unique_jobs_idempotency.js';
import * as m20261122000500 from './migrations/20261122000500_index_jobs_expiry.js';
import * as m20261122000600 from './migrations/20261122000600_create_job_pages.js';
import * as m20261122000700 from './migrations/20261122000700_create_job_items.js';
import * as m20261122000800 from './migrations/20261122000800_index_job_items_order.js';
import * as m20261124000000 from './migrations/20261124000000_create_tasks.js';
import * as m20261124000100 from './migrations/20261124000100_index_tasks_claim.js';
import * as m20261124000200 from './migrations/20261124000200_create_events.js';
import * as m20261124000300 from './migrations/20261124000300_index_events_created.js';
import * as m20261124000400 from './migrations/20261124000400_drop_jobs_claim_index.js';
import * as m20261124000450 from './migrations/20261124000450_tasks_for_active_jobs.js';
import * as m20261124000500 from './migrations/20261124000500_drop_jobs_lease.js';
import * as m20261125000000 from './migrations/20261125000000_add_jobs_stats_include.js';
import * as m20261125000100 from './migrations/20261125000100_add_job_pages_stats_items.js';
import * as m20261125100000 from './migrations/20261125100000_create_tracked_searches.js';
import * as m20261125100100 from './migrations/20261125100100_index_tracked_searches_due.js';
import * as m20261125100200 from './migrations/20261125100200_index_tracked_searches_workspace.js';
import * as m20261125100300 from './migrations/20261125100300_create_tracked_search_runs.js';
import * as m20261125100400 from './migrations/20261125100400_index_tracked_search_runs_search.js';
import * as m20261125100500 from './migrations/20261125100500_create_tracked_search_run_pages.js';
import * as m20261125100600 from './migrations/20261125100600_create_sold_archive.js';
import * as m20261125100700 from './migrations/20261125100700_index_sold_archive_sold_date.js';
import * as m20261125100800 from './migrations/20261125100800_index_tracked_search_runs_finished.js';
import * as m20261125100900 from './migrations/20261125100900_index_tracked_searches_last_run.js';
import * as m20261125400000 from './migrations/20261125400000_add_events_dispatched_at.js';
import * as m20261125400100 from './migrations/20261125400100_index_events_dispatch.js';
import * as m20261125400150 from './migrations/20261125400150_mark_earlier_events_dispatched.js';
import * as m20261125400200 from './migrations/20261125400200_create_webhook_deliveries.js';
import * as m20261125400300 from './migrations/20261125400300_index_webhook_deliveries_created.js';
import * as m20261125400400 from './migrations/20261125400400_index_webhook_deliveries_endpoint.js';
import * as m20261127100000 from './migrations/20261127100000_add_job_pages_pending_charge.js';
import * as m20261127100100 from './migrations/20261127100100_index_job_pages_pending_charge.js';
import * as m20261127100200 from './migrations/20261127100200_add_run_pages_pending_charge.js';
import * as m20261127100300 from './migrations/20261127100300_index_run_pages_pending_charge.js';

/**
 * The jobs service's own tables: jobs, their pages and items, tasks, events, tracked searches, the sold archive and
 * webhook deliveries; applied by the service at boot. Listed here, each by its file's name (what the migration table
 * records), rather than read from the folder at run time: the bundle then holds them with the one Kysely it runs, and a
 * start reads no folder. A new migration is added to the list; a test holds the list to the folder.
 */
export const JOBS_MIGRATIONS: MigrationSet = {
  table: 'jobs_migration',
  migrations: {
    '20261122000000_create_jobs': m20261122000000,
    '20261122000100_index_jobs_claim': m20261122000100,
    '20261122000200_index_jobs_workspace': m20261122000200,
    '20261122000300_unique_jobs_active_workspace': m20261122000300,
    '20261122000400_unique_jobs_idempotency': m20261122000400,
    '20261122000500_index_jobs_expiry': m20261122000500,
    '20261122000600_create_job_pages': m20261122000600,
    '20261122000700_create_job_items': m20261122000700,
    '20261122000800_index_job_items_order': m20261122000800,
    '20261124000000_create_tasks': m20261124000000,
    '20261124000100_index_tasks_claim': m20261124000100,
    '20261124000200_create_events': m20261124000200,
    '20261124000300_index_events_created': m20261124000300,
    '20261124000400_drop_jobs_claim_index': m20261124000400,
    '20261124000450_tasks_for_active_jobs': m20261124000450,
    '20261124000500_drop_jobs_lease': m20261124000500,
    '20261125000000_add_jobs_stats_include': m20261125000000,
    '20261125000100_add_job_pages_stats_items': m20261125000100,
    '20261125100000_create_tracked_searches': m20261125100000,
    '20261125100100_index_tracked_searches_due': m20261125100100,
    '20261125100200_index_tracked_searches_workspace': m20261125100200,
    '20261125100300_create_tracked_search_runs': m20261125100300,
    '20261125100400_index_tracked_search_runs_search': m20261125100400,
    '20261125100500_create_tracked_search_run_pages': m20261125100500,
    '20261125100600_create_sold_archive': m20261125100600,
    '20261125100700_index_sold_archive_sold_date': m20261125100700,
    '20261125100800_index_tracked_search_runs_finished': m20261125100800,
    '20261125100900_index_tracked_searches_last_run': m20261125100900,
    '20261125400000_add_events_dispatched_at': m20261125400000,
    '20261125400100_index_events_dispatch': m20261125400100,
    '20261125400150_mark_earlier_events_dispatched': m20261125400150,
    '20261125400200_create_webhook_deliveries': m20261125400200,
    '20261125400300_index_webhook_deliveries_created': m20261125400300,
    '20261125400400_index_webhook_deliveries_endpoint': m20261125400400,
    '20261127100000_add_job_pages_pending_charge': m20261127100000,
    '20261127100100_index_job_pages_pending_charge': m20261127100100,
    '20261127100200_add_run_pages_pending_charge': m20261127100200,
    '20261127100300_index_run_pages_pending_charge': m20261127100300,
  },
};
