import type { Db } from '@comps/shared/db/create-db';
import type { Logger } from '@comps/shared/logging/create-logger';
import { createInternalTrpc } from '@comps/shared/trpc/internal-trpc';
import type { LedgerContext } from '../ledger/ledger-context.js';

export interface AccountsContext {
  db: Db;
  ledger: LedgerContext;
  logger: Logger;
}

export const { router, procedure } = createInternalTrpc<AccountsContext>();
