import type { z } from 'zod';
import { runSchema } from '@comps/shared/contract/tracked-search';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { RUN_START_EXAMPLE } from '../examples.js';
import { TRACKED_SEARCH_PATH } from './tracked-search-path.js';

/** `POST /v1/tracked-searches/{trackedSearchId}/runs`: a run now, besides the schedule's. */
export function startRunRoute(deps: { jobs: JobsClient }) {
  return defineRoute<undefined, z.output<typeof TRACKED_SEARCH_PATH.schema>>({
    method: 'POST',
    path: '/v1/tracked-searches/{trackedSearchId}/runs',
    operationId: 'startTrackedSearchRun',
    summary: 'Run a tracked search now',
    description: 'One run per tracked search at a time. Each page it fetches is charged one request; its history entries carry the run id as `jobId`.',
    tag: 'Tracked searches',
    params: TRACKED_SEARCH_PATH,
    errors: ['tracked_search_not_found', 'run_in_progress'],
    success: { status: 202, schema: runSchema, description: 'The run, started' },
    example: RUN_START_EXAMPLE,
    handle: async (request) => {
      const { principal } = request;
      const run = await deps.jobs.trackedSearches.runNow.mutate({
        workspaceId: principal.workspaceId,
        trackedSearchId: request.params.trackedSearchId,
        apiKeyId: principal.apiKeyId,
        apiKeyPrefix: principal.apiKeyPrefix,
      });
      // The request's history entry names the run, as the entries of the pages it fetches do.
      return { kind: 'json', status: 202, body: run, headers: NO_STORE, jobId: run.runId };
    },
  });
}
