import { createLogger } from '@comps/shared/logging/create-logger';
import { listen } from '@comps/shared/runtime/http-server';
import { countedAsWork } from '@comps/shared/runtime/idle-collector';
import { loadServiceNativeHelper } from '@comps/shared/runtime/native-helper';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { createApiService } from './api-service.js';
import { loadApiConfig } from './config.js';

/**
 * How long requests in flight get to finish at shutdown before they are abandoned (answered 503,
 * charged nothing). Caddy has already let them finish for its grace period when the api is stopped
 * (npm start stops Caddy first), so this is for a stop of the api alone.
 */
const DRAIN_MS = 5000;

async function main(): Promise<void> {
  const config = loadApiConfig(process.env);
  const logger = createLogger('api', config.logLevel);
  const service = createApiService(config, logger, loadServiceNativeHelper(logger));
  const collector = service.idleCollector;
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
