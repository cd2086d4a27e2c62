import { trackedSearchCreateObject, trackedSearchCreateSchema, trackedSearchPageQuery, trackedSearchSchema, type TrackedSearchCreate } from '@comps/shared/contract/tracked-search';
import { newTrackedSearchId } from '@comps/shared/ids';
import { createdOnce } from '@comps/shared/internal/created-once';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import type { Meter } from '@comps/shared/metering/meter';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { TRACKED_SEARCH_CREATE_EXAMPLE } from '../examples.js';


/** `POST /v1/tracked-searches`: a sold search the jobs service runs on a schedule, keeping what it finds in the workspace's archive. */
export function createTrackedSearchRoute(deps: { jobs: JobsClient; meter: Pick<Meter, 'refusalFor'> }) {
  return defineRoute<undefined, undefined, TrackedSearchCreate>({
    method: 'POST',
    path: '/v1/tracked-searches',
    operationId: 'createTrackedSearch',
    summary: 'Track a sold search: run it on a schedule and archive every sale it finds (beyond the specification)',
    description:
      'The search is always sold, sorted `endedRecently`, 200 a page. Its first run starts at once; the following ones follow `schedule`. Each page a run fetches is charged one request; a run stops at the first page with no sale the archive lacks, or at `maxPagesPerRun`. At most the plan\'s number of tracked searches per workspace.',
    tag: 'Tracked searches',
    body: { schema: trackedSearchCreateSchema, fields: trackedSearchCreateObject, message: 'Invalid request body' },
    market: 'work',
    errors: ['tracked_search_limit'],
    facts: { from: 'body', searchText: 'keyword', site: true },
    success: { status: 201, schema: trackedSearchSchema, description: 'The tracked search' },
    example: TRACKED_SEARCH_CREATE_EXAMPLE,
    handle: async (request) => {
      // A closed data gate or a site not enabled would fail every run: one clear answer instead of a tracked search that never archives.
      const refusal = deps.meter.refusalFor({ kind: 'search', query: trackedSearchPageQuery(request.body, 1) });
      if (refusal) throw refusal;
      const { principal } = request;
      const input = {
        workspaceId: principal.workspaceId,
        trackedSearchId: newTrackedSearchId(),
        apiKeyId: principal.apiKeyId,
        apiKeyPrefix: principal.apiKeyPrefix,
        limit: principal.plan.trackedSearches,
        body: request.body,
      };
      const trackedSearch = await createdOnce(() => deps.jobs.trackedSearches.create.mutate(input));
      return { kind: 'json', status: 201, body: trackedSearch, headers: { ...NO_STORE, Location: `/v1/tracked-searches/${trackedSearch.trackedSearchId}` } };
    },
  });
}
