import type { z } from 'zod';
import { trackedSearchDeletedSchema } from '@comps/shared/contract/tracked-search';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { TRACKED_SEARCH_DELETE_EXAMPLE } from '../examples.js';
import { TRACKED_SEARCH_PATH } from './tracked-search-path.js';

/** `DELETE /v1/tracked-searches/{trackedSearchId}`: the tracked search, its runs and its archive. */
export function deleteTrackedSearchRoute(deps: { jobs: JobsClient }) {
  return defineRoute<undefined, z.output<typeof TRACKED_SEARCH_PATH.schema>>({
    method: 'DELETE',
    path: '/v1/tracked-searches/{trackedSearchId}',
    operationId: 'deleteTrackedSearch',
    summary: 'Delete a tracked search and its archive',
    description: 'Its runs and every sale of its archive are deleted with it, its keyword too.',
    tag: 'Tracked searches',
    params: TRACKED_SEARCH_PATH,
    errors: ['tracked_search_not_found'],
    success: { status: 200, schema: trackedSearchDeletedSchema, description: 'What was deleted' },
    example: TRACKED_SEARCH_DELETE_EXAMPLE,
    handle: async (request) => {
      const deleted = await deps.jobs.trackedSearches.delete.mutate({ workspaceId: request.principal.workspaceId, trackedSearchId: request.params.trackedSearchId });
      return { kind: 'json', status: 200, body: deleted, headers: NO_STORE };
    },
  });
}
