import type { Logger } from '../logging/create-logger.js';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

/**
 * On SIGTERM or SIGINT, runs the steps in order (stop intake first, close stores last) and exits;
 * a shutdown that hangs past `timeoutMs` exits non-zero rather than never.
 */
export function onShutdown(logger: Logger, steps: ShutdownStep[], timeoutMs = 15_000): void {
  let started = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    deadline.unref();
    let failed = false;
    for (const step of steps) {
      try {
        await step.run();
      } catch (error) {
        failed = true;
        logger.error({ step: step.name, err: error instanceof Error ? error.message : String(error) }, 'shutdown step failed');
      }
    }
    clearTimeout(deadline);
    logger.info('stopped');
    logger.flush();
    process.exit(failed ? 1 : 0);
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}

/** Boot failures (bad configuration, a port in use) end the process with the reason on stderr. */
export function exitOnBootFailure(service: string) {
  return (error: unknown): never => {
    process.stderr.write(`${service}: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  };
}
