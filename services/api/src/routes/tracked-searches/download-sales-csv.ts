import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import { SALES_CSV_COLUMNS } from '@comps/shared/contract/job-csv';
import { openSalesCsv } from '@comps/shared/internal/jobs/job-csv-download';
import type { InternalClientOptions } from '@comps/shared/internal/internal-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { SALES_CSV_EXAMPLE } from '../examples.js';
import { TRACKED_SEARCH_PATH } from './tracked-search-path.js';

/** `GET /v1/tracked-searches/{trackedSearchId}/sales.csv`: its whole archive, streamed from the jobs service's internal port. */
export function downloadSalesCsvRoute(deps: { jobsHttp: InternalClientOptions }) {
  return defineRoute<undefined, z.output<typeof TRACKED_SEARCH_PATH.schema>>({
    method: 'GET',
    path: '/v1/tracked-searches/{trackedSearchId}/sales.csv',
    operationId: 'downloadTrackedSearchSalesCsv',
    summary: "A tracked search's archived sales as CSV",
    description: `RFC 4180, UTF-8, a header row always, one row per sale, newest sold first, streamed. Columns: ${SALES_CSV_COLUMNS.join(', ')}. A cell that starts with =, +, - or @ is prefixed with an apostrophe.`,
    tag: 'Tracked searches',
    params: TRACKED_SEARCH_PATH,
    errors: ['tracked_search_not_found'],
    success: { status: 200, contentType: 'text/csv; charset=utf-8', description: 'The CSV' },
    example: SALES_CSV_EXAMPLE,
    handle: async (request) => {
      const { trackedSearchId } = request.params;
      // Opened before the answer starts, so that an unknown tracked search is a 404 rather than a broken download.
      const csv = await openSalesCsv(deps.jobsHttp, { workspaceId: request.principal.workspaceId, trackedSearchId }, request.signal);
      return {
        kind: 'stream',
        status: 200,
        contentType: 'text/csv; charset=utf-8',
        headers: { ...NO_STORE, 'Content-Disposition': `attachment; filename="sales-${trackedSearchId}.csv"` },
        write: (out) => pipeline(csv, out, { end: false }),
      };
    },
  });
}
