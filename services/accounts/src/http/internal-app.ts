import Koa from 'koa';
import type { BaseState } from '@comps/shared/http/app-state';
import { assignRequestId } from '@comps/shared/http/assign-request-id';
import { handleErrors } from '@comps/shared/http/handle-errors';
import { healthRoutes } from '@comps/shared/http/health-routes';
import { mountTrpc, TRPC_BASE_PATH } from '@comps/shared/http/mount-trpc';
import { requireInternalToken } from '@comps/shared/http/require-internal-token';
import type { KeyAnnouncer } from '@comps/shared/internal/accounts/key-announcements';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { LedgerContext } from '../ledger/ledger-context.js';
import { accountsRouter } from '../trpc/router.js';
import { pingDatabase } from '@comps/shared/db/ping';
import type { AccountsDb } from '../db/database.js';
import type { WebhookContext } from '../webhooks/webhook-context.js';

export interface InternalAppDeps {
  db: AccountsDb;
  ledger: LedgerContext;
  keys: KeyAnnouncer;
  logger: Logger;
  internalToken: string;
  webhooks: WebhookContext;
}

/** The internal port: tRPC for the other services and health checks; never exposed by Caddy. */
export function createInternalApp({ db, ledger, keys, logger, internalToken, webhooks }: InternalAppDeps): Koa<BaseState> {
  const app = new Koa<BaseState>();
  app.silent = true;
  app.on('error', (error: unknown) => logger.warn({ err: error }, 'connection error'));
  const health = healthRoutes({
    database: async () => {
      await pingDatabase(db);
    },
  });
  const guard = requireInternalToken(internalToken);
  app.use(assignRequestId());
  app.use(handleErrors(logger));
  app.use(health.routes());
  app.use((ctx, next) => (ctx.path.startsWith(TRPC_BASE_PATH) ? guard(ctx, next) : next()));
  app.use(mountTrpc(accountsRouter, () => ({ db, ledger, keys, logger, webhooks })));
  return app;
}
