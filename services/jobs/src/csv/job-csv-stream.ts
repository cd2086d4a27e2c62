import type { JobsDb, JobRow } from '../db/database.js';
import { itemsAfter } from '../jobs/job-repository.js';
import { jobItemOf, type JobComps } from '../jobs/job-stats.js';
import { CSV_HEADER, csvRow } from '@comps/shared/contract/job-csv';

const CHUNK_ROWS = 500;

/**
 * The job's CSV, header first, read from the database a chunk at a time (keyset on the order items
 * were collected): memory holds one chunk whatever the job's size, besides each item's verdict
 * among all of the job's (`comps`, read with the job). Items collected while it streams are
 * included up to where it has read, with their page's own comps.
 */
export async function* jobCsvChunks(db: JobsDb, job: JobRow, comps: JobComps): AsyncGenerator<string> {
  yield CSV_HEADER;
  let after: { page: number; position: number } | null = null;
  let index = 0;
  for (;;) {
    const rows = await itemsAfter(db, job.id, after, CHUNK_ROWS);
    if (rows.length === 0) return;
    yield rows.map((row) => csvRow(jobItemOf(row.item, comps.verdicts[index++], job))).join('');
    const last = rows[rows.length - 1]!;
    after = { page: last.page, position: last.position };
    if (rows.length < CHUNK_ROWS) return;
  }
}
