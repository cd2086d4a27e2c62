import { initTRPC, TRPCError } from '@trpc/server';
import type { Db } from '@comps/shared/db/create-db';
import { isDatabaseUnavailable } from '@comps/shared/db/database-errors';
import { AppError } from '@comps/shared/errors/app-error';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { LedgerContext } from '../ledger/ledger-context.js';

export interface AccountsContext {
  db: Db;
  ledger: LedgerContext;
  logger: Logger;
}

const t = initTRPC.context<AccountsContext>().create({ isDev: false });

/**
 * Errors leave with a tRPC code the callers act on: SERVICE_UNAVAILABLE when the database is down
 * (callers answer 503), BAD_REQUEST for a refused input, INTERNAL_SERVER_ERROR for anything else.
 */
const translateErrors = t.middleware(async ({ next, ctx, path }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause ?? result.error;
  if (isDatabaseUnavailable(cause)) {
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'database unavailable', cause });
  }
  if (cause instanceof AppError && cause.code === 'invalid_request') {
    throw new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause });
  }
  if (result.error.code === 'INTERNAL_SERVER_ERROR') ctx.logger.error({ err: cause, path }, 'procedure failed');
  return result;
});

export const router = t.router;
export const procedure = t.procedure.use(translateErrors);
