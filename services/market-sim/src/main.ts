import { createLogger } from '@comps/shared/logging/create-logger';
import { listen } from '@comps/shared/runtime/http-server';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { loadSimConfig } from './config.js';
import { createSimApp } from './http/create-app.js';

async function main(): Promise<void> {
  const config = loadSimConfig(process.env);
  const logger = createLogger('market-sim', config.logLevel);
  const server = await listen(createSimApp(config, logger).callback(), config.port, config.bindHost);
  onShutdown(logger, [{ name: 'server', run: () => server.close(2000) }]);
  logger.info({ port: server.port, knobs: config.knobs, pageStyle: config.pageStyle, cacheBytes: config.cacheBytes }, 'market simulator listening');
}

main().catch(exitOnBootFailure('market-sim'));
