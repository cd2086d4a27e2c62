import Koa from 'koa';
import { healthRoutes } from '@comps/shared/http/health-routes';
import { metricsRoute } from '@comps/shared/http/metrics-route';
import type { MemoryFigures } from '@comps/shared/http/process-metrics';
import type { LayoutWatch } from '@comps/shared/market/layout-watch';
import type { ParseThreadFigures } from '@comps/shared/market/parse-threads';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import type { IdleCollectionTotals } from '@comps/shared/runtime/idle-collector';
import type { KeyDirectory } from '../auth/key-directory.js';

/**
 * The internal port: health checks and metrics; Caddy never routes here. Accounts is asked through the
 * same client the requests use; the api is ready once it knows which keys exist.
 */
export function createInternalApp(deps: {
  redis: RedisClient;
  accounts: AccountsClient;
  directory: Pick<KeyDirectory, 'loaded'>;
  layoutWatch: LayoutWatch;
  memory: () => MemoryFigures;
  idleCollections: () => IdleCollectionTotals | null;
  /** The parse threads' figures (null: the service reads pages on its main thread). */
  parseThreads: () => ParseThreadFigures | null;
}): Koa {
  const app = new Koa();
  app.silent = true;
  const health = healthRoutes({
    redis: async () => {
      await deps.redis.ping();
    },
    accounts: async () => {
      await deps.accounts.health.ping.query();
    },
    keys: async () => {
      if (!deps.directory.loaded) throw new Error('the API keys are not loaded yet');
    },
  });
  app.use(health.routes());
  app.use(metricsRoute(deps.layoutWatch, deps.memory, deps.idleCollections, deps.parseThreads).routes());
  return app;
}
