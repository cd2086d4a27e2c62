import Koa from 'koa';
import { healthRoutes } from '@comps/shared/http/health-routes';
import type { RedisClient } from '@comps/shared/redis/create-redis';

/** The internal port: health checks only; Caddy never routes here. */
export function createInternalApp(redis: RedisClient, accountsUrl: string): Koa {
  const app = new Koa();
  app.silent = true;
  const health = healthRoutes({
    redis: async () => {
      await redis.ping();
    },
    accounts: async () => {
      const response = await fetch(`${accountsUrl}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (!response.ok) throw new Error(`accounts answered ${response.status}`);
    },
  });
  app.use(health.routes());
  return app;
}
