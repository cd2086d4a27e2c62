import Koa from 'koa';
import { sql } from 'kysely';
import type { Db } from '@comps/shared/db/create-db';
import { healthRoutes } from '@comps/shared/http/health-routes';
import type { RedisClient } from '@comps/shared/redis/create-redis';

/** The jobs service's only port: internal, health checks (its worker and tRPC come with background jobs). */
export function createInternalApp(db: Db, redis: RedisClient): Koa {
  const app = new Koa();
  app.silent = true;
  const health = healthRoutes({
    database: async () => {
      await sql`SELECT 1`.execute(db);
    },
    redis: async () => {
      await redis.ping();
    },
  });
  app.use(health.routes());
  return app;
}
