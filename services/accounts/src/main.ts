import { createDb } from '@comps/shared/db/create-db';
import { createLogger } from '@comps/shared/logging/create-logger';
import { listen } from '@comps/shared/runtime/http-server';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { startPeriodicTask } from '@comps/shared/runtime/periodic-task';
import { loadAccountsConfig } from './config.js';
import { purgeHistory } from './history/history-service.js';
import { createInternalApp } from './http/internal-app.js';
import { createPublicApp } from './http/public-app.js';
import { createLedgerContext } from './ledger/ledger-context.js';
import { releaseExpiredReservations } from './ledger/ledger-service.js';

async function main(): Promise<void> {
  const config = loadAccountsConfig(process.env);
  const logger = createLogger('accounts', config.logLevel);
  const db = createDb({ url: config.databaseUrl, connectionLimit: 20, isolation: 'read committed' });
  const ledger = createLedgerContext(db, config.reservationTtlSeconds * 1000);

  const internal = await listen(
    createInternalApp({ db, ledger, logger, internalToken: config.internalToken }).callback(),
    config.internalPort,
    config.bindHost,
  );
  const publicServer = await listen(createPublicApp(logger).callback(), config.publicPort, config.bindHost);

  const sweeper = startPeriodicTask(
    'release-expired-reservations',
    config.sweepIntervalMs,
    async () => {
      const released = await releaseExpiredReservations(ledger);
      if (released > 0) logger.info({ released }, 'released expired quota reservations');
    },
    logger,
  );
  const purger = startPeriodicTask(
    'purge-history',
    config.historyPurgeIntervalMs,
    async () => {
      const deleted = await purgeHistory(db);
      if (deleted > 0) logger.info({ deleted }, 'purged request history past retention');
    },
    logger,
  );
  void purger.runNow();

  onShutdown(logger, [
    { name: 'public server', run: () => publicServer.close() },
    { name: 'internal server', run: () => internal.close() },
    { name: 'periodic tasks', run: async () => void (await Promise.all([sweeper.stop(), purger.stop()])) },
    { name: 'database', run: () => db.destroy() },
  ]);
  logger.info({ publicPort: publicServer.port, internalPort: internal.port }, 'accounts listening');
}

main().catch(exitOnBootFailure('accounts'));
