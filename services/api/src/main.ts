import { createLogger } from '@comps/shared/logging/create-logger';
import { listen } from '@comps/shared/runtime/http-server';
import { fullGarbageCollection } from '@comps/shared/runtime/full-garbage-collection';
import { countedAsWork, IdleCollector, timerSchedule } from '@comps/shared/runtime/idle-collector';
import { loadMallocTrim } from '@comps/shared/runtime/malloc-trim';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { createApiService } from './api-service.js';
import { loadApiConfig } from './config.js';

/**
 * How long requests in flight get to finish at shutdown before they are abandoned (answered 503,
 * charged nothing). Caddy has already let them finish for its grace period when the api is stopped
 * (npm start stops Caddy first), so this is for a stop of the api alone.
 */
const DRAIN_MS = 5000;

/** Growth of the resident memory since the last idle collection below which another is not worth its pause. */
const IDLE_GC_MIN_GROWTH_BYTES = 16 * 1024 * 1024;

async function main(): Promise<void> {
  const config = loadApiConfig(process.env);
  const logger = createLogger('api', config.logLevel);
  const service = createApiService(config, logger);
  const collectGarbage = fullGarbageCollection();
  const mallocTrim = loadMallocTrim();
  if ('unavailable' in mallocTrim) logger.warn({ reason: mallocTrim.unavailable }, "glibc's free memory is not given back after an idle collection");
  const collector =
    config.idleGcMs > 0
      ? new IdleCollector({
          idleMs: config.idleGcMs,
          minGrowthBytes: IDLE_GC_MIN_GROWTH_BYTES,
          // V8's garbage first (which frees the pages' text and bodies), then the pages glibc holds free.
          collect: () => {
            collectGarbage();
            if ('trim' in mallocTrim) mallocTrim.trim();
          },
          residentBytes: () => process.memoryUsage.rss(),
          schedule: timerSchedule(),
          onCollected: ({ beforeBytes, afterBytes, pauseMs }) =>
            logger.debug({ residentMbBefore: Math.round(beforeBytes / 1048576), residentMbAfter: Math.round(afterBytes / 1048576), pauseMs: Math.round(pauseMs) }, 'idle garbage collection'),
          now: () => performance.now(),
        })
      : null;
  const handler = service.app.callback();
  const publicServer = await listen(collector ? countedAsWork(handler, collector) : handler, config.port, config.bindHost, service.allowedMethods);
  const internal = await listen(service.internalApp.callback(), config.internalPort, config.bindHost);

  onShutdown(logger, [
    {
      name: 'public server',
      run: async () => {
        collector?.close();
        // Requests in flight finish; those still running after the drain are abandoned, uncharged.
        const abandon = setTimeout(() => service.abandonRequests(), DRAIN_MS);
        await publicServer.close(DRAIN_MS + 1000);
        clearTimeout(abandon);
      },
    },
    { name: 'internal server', run: () => internal.close() },
    // Charges and history this process holds are settled and sent; then its clients close.
    { name: 'metering and history', run: () => service.close() },
  ]);
  logger.info({ port: publicServer.port, internalPort: internal.port }, 'api listening');
}

main().catch(exitOnBootFailure('api'));
