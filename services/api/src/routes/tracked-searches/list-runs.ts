import type { z } from 'zod';
import { runListSchema, TRACKED_SEARCH_LIMITS } from '@comps/shared/contract/tracked-search';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { RUN_LIST_EXAMPLE } from '../examples.js';
import { TRACKED_SEARCH_PATH } from './tracked-search-path.js';

/** `GET /v1/tracked-searches/{trackedSearchId}/runs`: its recent runs, newest first. */
export function listRunsRoute(deps: { jobs: JobsClient }) {
  return defineRoute<undefined, z.output<typeof TRACKED_SEARCH_PATH.schema>>({
    method: 'GET',
    path: '/v1/tracked-searches/{trackedSearchId}/runs',
    operationId: 'listTrackedSearchRuns',
    summary: `A tracked search's runs of the last ${TRACKED_SEARCH_LIMITS.runsDays} days, newest first`,
    tag: 'Tracked searches',
    params: TRACKED_SEARCH_PATH,
    errors: ['tracked_search_not_found'],
    success: { status: 200, schema: runListSchema, description: 'The runs' },
    example: RUN_LIST_EXAMPLE,
    handle: async (request) => {
      const runs = await deps.jobs.trackedSearches.runs.query({ workspaceId: request.principal.workspaceId, trackedSearchId: request.params.trackedSearchId });
      return { kind: 'json', status: 200, body: runs, headers: NO_STORE };
    },
  });
}
