import type { z } from 'zod';
import { trackedSearchSchema } from '@comps/shared/contract/tracked-search';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { TRACKED_SEARCH_GET_EXAMPLE } from '../examples.js';
import { TRACKED_SEARCH_PATH } from './tracked-search-path.js';

/** `GET /v1/tracked-searches/{trackedSearchId}`: the tracked search, its last run and its archive's extent. */
export function getTrackedSearchRoute(deps: { jobs: JobsClient }) {
  return defineRoute<undefined, z.output<typeof TRACKED_SEARCH_PATH.schema>>({
    method: 'GET',
    path: '/v1/tracked-searches/{trackedSearchId}',
    operationId: 'getTrackedSearch',
    summary: 'A tracked search',
    tag: 'Tracked searches',
    params: TRACKED_SEARCH_PATH,
    errors: ['tracked_search_not_found'],
    success: { status: 200, schema: trackedSearchSchema, description: 'The tracked search' },
    example: TRACKED_SEARCH_GET_EXAMPLE,
    handle: async (request) => {
      const trackedSearch = await deps.jobs.trackedSearches.get.query({ workspaceId: request.principal.workspaceId, trackedSearchId: request.params.trackedSearchId });
      return { kind: 'json', status: 200, body: trackedSearch, headers: NO_STORE };
    },
  });
}
