/** Rows one purge statement deletes at most: a large purge never holds its locks long. */
export const PURGE_BATCH = 5000;

/** Runs `deleteBatch` (which deletes at most `limit` rows and says how many) until a batch comes up short: how many were deleted in all. */
export async function deleteInBatches(deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(PURGE_BATCH);
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
  }
}
