import type { Transaction } from 'kysely';
import type { Database } from './database.js';
import type { Db } from './create-db.js';
import { isDeadlock } from './database-errors.js';

export type Executor = Db | Transaction<Database>;

/**
 * Runs `work` in a transaction, retrying it when InnoDB picks it as a deadlock victim
 * (the work must therefore be safe to run again, which a rolled-back transaction is).
 */
export async function withTransaction<T>(
  db: Db,
  work: (trx: Transaction<Database>) => Promise<T>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
    }
  }
}
