import type { z } from 'zod';
import { archiveStatsQueryObject, archiveStatsQuerySchema, archiveStatsSchema, type ArchiveStatsQuery } from '@comps/shared/contract/tracked-search';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { ARCHIVE_STATS_EXAMPLE } from '../examples.js';
import { TRACKED_SEARCH_PATH } from './tracked-search-path.js';

/** `GET /v1/tracked-searches/{trackedSearchId}/stats`: what its archive sold for, over any period, and how that moved. */
export function getArchiveStatsRoute(deps: { jobs: JobsClient }) {
  return defineRoute<ArchiveStatsQuery, z.output<typeof TRACKED_SEARCH_PATH.schema>>({
    method: 'GET',
    path: '/v1/tracked-searches/{trackedSearchId}/stats',
    operationId: 'getTrackedSearchStats',
    summary: "Statistics of a tracked search's archive, with a price series",
    description:
      '`stats` are those of a search answer, over the archive\'s sales sold between `from` and `to` (default: all). `series` has one entry per `interval` with sales, oldest first; its figures are null below 3 counted sales.',
    tag: 'Tracked searches',
    params: TRACKED_SEARCH_PATH,
    query: { schema: archiveStatsQuerySchema, fields: archiveStatsQueryObject, message: 'Invalid query parameters' },
    errors: ['tracked_search_not_found'],
    success: { status: 200, schema: archiveStatsSchema, description: 'The statistics and the series' },
    example: ARCHIVE_STATS_EXAMPLE,
    handle: async (request) => {
      const stats = await deps.jobs.trackedSearches.stats.query({ workspaceId: request.principal.workspaceId, trackedSearchId: request.params.trackedSearchId, ...request.query });
      return { kind: 'json', status: 200, body: stats, headers: NO_STORE };
    },
  });
}
