import type { JobItem } from '@comps/shared/contract/job';
import type { JobsDb } from '../db/database.js';
import { itemsAfter } from '../jobs/job-repository.js';
import { CSV_HEADER, csvRow } from '@comps/shared/contract/job-csv';

const CHUNK_ROWS = 500;

/**
 * The job's CSV, header first, read from the database a chunk at a time (keyset on the order items
 * were collected): memory holds one chunk whatever the job's size. Items collected while it streams
 * are included up to where it has read.
 */
export async function* jobCsvChunks(db: JobsDb, jobId: string): AsyncGenerator<string> {
  yield CSV_HEADER;
  let after: { page: number; position: number } | null = null;
  for (;;) {
    const rows = await itemsAfter(db, jobId, after, CHUNK_ROWS);
    if (rows.length === 0) return;
    yield rows.map((row) => csvRow(JSON.parse(row.item) as JobItem)).join('');
    const last = rows[rows.length - 1]!;
    after = { page: last.page, position: last.position };
    if (rows.length < CHUNK_ROWS) return;
  }
}
