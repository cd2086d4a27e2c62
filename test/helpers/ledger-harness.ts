import type { Teardown } from './test-stack.js';
import { createDb } from '@comps/shared/db/create-db';
import type { AccountsDatabase, AccountsDb } from '../../services/accounts/src/db/database.js';
import { createLedgerContext, type LedgerContext } from '../../services/accounts/src/ledger/ledger-context.js';
import { createWorkspace, setWorkspaceLimits } from '../../services/accounts/src/workspaces/workspace-service.js';
import { prepareTestDatabase, TEST_DATABASE_URL } from './test-env.js';

/** A ledger context whose clock the test moves (`clock.time`). */
export type TestLedger = LedgerContext & { clock: { time: Date } };

export interface LedgerHarness {
  /** The file's first pool. */
  db: AccountsDb;
  /** Another pool, made as accounts' main makes its own: another accounts process, or one of few connections. */
  pool(connectionLimit?: number): AccountsDb;
  /** The ledger on `on` (the first pool by default) at `time`. */
  ledgerAt(time: Date, on?: AccountsDb): TestLedger;
  /** A free-plan workspace whose monthly quota is `monthlyQuota`. */
  workspaceWithQuota(monthlyQuota: number): Promise<string>;
}

/** The quota ledger in process, on the file's own database, with a clock of the test's; its pools closed at teardown. */
export async function ledgerHarness(t: Pick<Teardown, 'teardown'>, options: { reservationTtlMs: number; workspaceName: string }): Promise<LedgerHarness> {
  await prepareTestDatabase();
  const pools: AccountsDb[] = [];
  t.teardown(() => Promise.all(pools.map((db) => db.destroy())));
  const pool = (connectionLimit = 10): AccountsDb => {
    const db = createDb<AccountsDatabase>({ url: TEST_DATABASE_URL, connectionLimit, isolation: 'read committed' });
    pools.push(db);
    return db;
  };
  const db = pool();
  return {
    db,
    pool,
    ledgerAt(time, on = db) {
      const clock = { time };
      return { ...createLedgerContext(on, options.reservationTtlMs, () => clock.time), clock };
    },
    async workspaceWithQuota(monthlyQuota) {
      const { workspaceId } = await createWorkspace(db, { name: options.workspaceName, planId: 'free' });
      await setWorkspaceLimits(db, workspaceId, { monthlyQuota });
      return workspaceId;
    },
  };
}
