import type { KeyAnnouncer } from '@comps/shared/internal/accounts/key-announcements';
import type { Logger } from '@comps/shared/logging/create-logger';
import { createInternalTrpc } from '@comps/shared/internal/internal-trpc';
import type { LedgerContext } from '../ledger/ledger-context.js';
import type { AccountsDb } from '../db/database.js';
import type { WebhookContext } from '../webhooks/webhook-context.js';

export interface AccountsContext {
  db: AccountsDb;
  /** Tells every api of keys made and revoked. */
  keys: KeyAnnouncer;
  ledger: LedgerContext;
  logger: Logger;
  /** Webhook endpoints: the key that seals their secrets, the address rules, the clock. */
  webhooks: WebhookContext;
}

export const { router, procedure, createCallerFactory } = createInternalTrpc<AccountsContext>();
