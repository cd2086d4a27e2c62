import type { Kysely, Transaction } from 'kysely';
import { isDeadlock } from './database-errors.js';

const attempts = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` in a transaction, retrying it when InnoDB picks it as a deadlock victim (the work
 * must therefore be safe to run again, which a rolled-back transaction is), after a short random
 * pause so that the contenders do not meet again at once. The isolation level is the session's,
 * set once per connection by createDb.
 */
export function withTransaction<T, Schema>(db: Kysely<Schema>, work: (trx: Transaction<Schema>) => Promise<T>): Promise<T> {
  return retryingDeadlocks(() => db.transaction().execute(work));
}

/** Runs `work` (one transaction, such as a stored procedure's) again when InnoDB picks it as a deadlock victim. */
export async function retryingDeadlocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
      await sleep(5 + Math.random() * 20 * attempt);
    }
  }
}
