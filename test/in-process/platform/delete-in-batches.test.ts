import t from 'tap';
import { deleteInBatches, PURGE_BATCH } from '@comps/shared/db/delete-in-batches';

// The purges' batch loop: batches of PURGE_BATCH until one comes up short, the total answered.
for (const rows of [0, 1, PURGE_BATCH - 1, PURGE_BATCH, PURGE_BATCH + 1, 3 * PURGE_BATCH, 3 * PURGE_BATCH + 17]) {
  t.test(`${rows} rows to delete`, async (t) => {
    let left = rows;
    const limits: number[] = [];
    const total = await deleteInBatches(async (limit) => {
      limits.push(limit);
      const deleted = Math.min(limit, left);
      left -= deleted;
      return deleted;
    });
    t.equal(total, rows, 'every row deleted, and counted');
    t.equal(left, 0);
    t.equal(limits.length, Math.floor(rows / PURGE_BATCH) + 1, 'one statement per full batch, and the short one that ends it');
    t.ok(limits.every((limit) => limit === PURGE_BATCH), `each at most ${PURGE_BATCH} rows`);
  });
}
