import type { Transaction } from 'kysely';
import type { Database } from './database.js';
import type { Db } from './create-db.js';
import { isDeadlock } from './database-errors.js';

export type Executor = Db | Transaction<Database>;

export interface TransactionOptions {
  /**
   * READ COMMITTED takes no gap locks, so transactions that look up a row that is not there yet
   * and then insert it do not deadlock each other (as they do under REPEATABLE READ).
   */
  isolation?: 'read committed' | 'repeatable read';
  attempts?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` in a transaction, retrying it when InnoDB picks it as a deadlock victim (the work
 * must therefore be safe to run again, which a rolled-back transaction is), after a short random
 * pause so that the contenders do not meet again at once.
 */
export async function withTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const builder = options.isolation ? db.transaction().setIsolationLevel(options.isolation) : db.transaction();
      return await builder.execute(work);
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
      await sleep(5 + Math.random() * 20 * attempt);
    }
  }
}
