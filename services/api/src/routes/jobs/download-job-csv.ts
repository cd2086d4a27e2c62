import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import { CSV_COLUMNS } from '@comps/shared/contract/job-csv';
import { openJobCsv } from '@comps/shared/internal/jobs/job-csv-download';
import type { InternalClientOptions } from '@comps/shared/internal/internal-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { JOB_CSV_EXAMPLE } from '../examples.js';
import { JOB_PATH } from './job-path.js';

/** `GET /v1/scrape/max/{jobId}/download.csv`: streamed from the jobs service's internal port, a chunk at a time. */
export function downloadJobCsvRoute(deps: { jobsHttp: InternalClientOptions }) {
  return defineRoute<undefined, z.output<typeof JOB_PATH.schema>>({
    method: 'GET',
    path: '/v1/scrape/max/{jobId}/download.csv',
    operationId: 'downloadJobCsv',
    summary: "The job's items as CSV",
    description: `RFC 4180, UTF-8, a header row always, one row per item, streamed; available while the job runs (what is collected so far) and after. Columns: ${CSV_COLUMNS.join(', ')}. A cell that starts with =, +, - or @ is prefixed with an apostrophe.`,
    tag: 'Jobs',
    params: JOB_PATH,
    errors: ['job_not_found'],
    success: { status: 200, contentType: 'text/csv; charset=utf-8', description: 'The CSV' },
    example: JOB_CSV_EXAMPLE,
    handle: async (request) => {
      const { jobId } = request.params;
      // Opened before the answer starts, so that an unknown job is a 404 rather than a broken download.
      const csv = await openJobCsv(deps.jobsHttp, { workspaceId: request.principal.workspaceId, jobId }, request.signal);
      return {
        kind: 'stream',
        status: 200,
        contentType: 'text/csv; charset=utf-8',
        headers: { ...NO_STORE, 'Content-Disposition': `attachment; filename="job-${jobId}.csv"` },
        jobId,
        write: (out) => pipeline(csv, out, { end: false }),
      };
    },
  });
}
