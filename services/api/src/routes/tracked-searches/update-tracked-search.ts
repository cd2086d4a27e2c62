import type { z } from 'zod';
import { trackedSearchSchema, trackedSearchUpdateObject, trackedSearchUpdateSchema, type TrackedSearchUpdate } from '@comps/shared/contract/tracked-search';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { TRACKED_SEARCH_UPDATE_EXAMPLE } from '../examples.js';
import { TRACKED_SEARCH_PATH } from './tracked-search-path.js';

/** `PATCH /v1/tracked-searches/{trackedSearchId}`: its name, schedule, pages a run or status; never its search (the archive is of that search). */
export function updateTrackedSearchRoute(deps: { jobs: JobsClient }) {
  return defineRoute<undefined, z.output<typeof TRACKED_SEARCH_PATH.schema>, TrackedSearchUpdate>({
    method: 'PATCH',
    path: '/v1/tracked-searches/{trackedSearchId}',
    operationId: 'updateTrackedSearch',
    summary: 'Rename, reschedule, pause or resume a tracked search',
    description: 'Any of `name`, `schedule`, `maxPagesPerRun`, `status`; at least one. A tracked search made active again is due at once.',
    tag: 'Tracked searches',
    params: TRACKED_SEARCH_PATH,
    body: { schema: trackedSearchUpdateSchema, fields: trackedSearchUpdateObject, message: 'Invalid request body' },
    errors: ['tracked_search_not_found'],
    success: { status: 200, schema: trackedSearchSchema, description: 'The tracked search as changed' },
    example: TRACKED_SEARCH_UPDATE_EXAMPLE,
    handle: async (request) => {
      const trackedSearch = await deps.jobs.trackedSearches.update.mutate({
        workspaceId: request.principal.workspaceId,
        trackedSearchId: request.params.trackedSearchId,
        changes: request.body,
      });
      return { kind: 'json', status: 200, body: trackedSearch, headers: NO_STORE };
    },
  });
}
