import { Router } from '@koa/router';

export type ReadinessCheck = () => Promise<void>;

const CHECK_TIMEOUT_MS = 1500;

async function runCheck(check: ReadinessCheck): Promise<'ok' | string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

/** `/healthz`: the process answers. `/readyz`: every dependency it needs answers too. */
export function healthRoutes(checks: Record<string, ReadinessCheck>): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((name) => runCheck(checks[name]!)));
    const report = Object.fromEntries(names.map((name, index) => [name, results[index]]));
    const ready = results.every((result) => result === 'ok');
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'unready', checks: report };
  });
  return router;
}
