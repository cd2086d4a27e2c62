import { SALES_CSV_HEADER, saleCsvRow } from '@comps/shared/contract/job-csv';
import type { JobsDb } from '../db/database.js';
import { listSales } from './archive-repository.js';

const CHUNK_ROWS = 1000;

/**
 * A tracked search's archive as CSV, header first, newest sold first, read a chunk at a time (keyset
 * on the sold date and item id of the date index): memory holds one chunk whatever the archive's size.
 * Each sale as first seen, with its page's comps.
 */
export async function* salesCsvChunks(db: JobsDb, trackedSearchId: string): AsyncGenerator<string> {
  yield SALES_CSV_HEADER;
  let after: { soldDate: string; itemId: string } | undefined;
  for (;;) {
    const rows = await listSales(db, trackedSearchId, { after }, CHUNK_ROWS);
    if (rows.length === 0) return;
    yield rows.map((row) => saleCsvRow({ ...JSON.parse(row.item), firstSeenAt: row.firstSeenAt.toISOString() })).join('');
    const last = rows.at(-1)!;
    after = { soldDate: last.soldDate, itemId: last.itemId };
    if (rows.length < CHUNK_ROWS) return;
  }
}
