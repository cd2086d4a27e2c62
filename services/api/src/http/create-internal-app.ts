import Koa from 'koa';
import { type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { healthRoutes } from '@comps/shared/http/health-routes';
import type { RedisClient } from '@comps/shared/redis/create-redis';

/** The internal port: health checks only; Caddy never routes here. Accounts is asked through the same client the requests use. */
export function createInternalApp(redis: RedisClient, accounts: AccountsClient): Koa {
  const app = new Koa();
  app.silent = true;
  const health = healthRoutes({
    redis: async () => {
      await redis.ping();
    },
    accounts: async () => {
      await accounts.health.ping.query();
    },
  });
  app.use(health.routes());
  return app;
}
