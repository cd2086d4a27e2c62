import { trackedSearchListSchema } from '@comps/shared/contract/tracked-search';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { TRACKED_SEARCH_LIST_EXAMPLE } from '../examples.js';

/** `GET /v1/tracked-searches`: the workspace's tracked searches, newest first. */
export function listTrackedSearchesRoute(deps: { jobs: JobsClient }) {
  return defineRoute({
    method: 'GET',
    path: '/v1/tracked-searches',
    operationId: 'listTrackedSearches',
    summary: "The workspace's tracked searches, newest first (beyond the specification)",
    tag: 'Tracked searches',
    success: { status: 200, schema: trackedSearchListSchema, description: 'The tracked searches' },
    example: TRACKED_SEARCH_LIST_EXAMPLE,
    handle: async ({ principal }) => ({ kind: 'json', status: 200, body: await deps.jobs.trackedSearches.list.query({ workspaceId: principal.workspaceId }), headers: NO_STORE }),
  });
}
