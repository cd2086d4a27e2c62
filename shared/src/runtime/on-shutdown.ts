import { writeSync } from 'node:fs';
import type { Logger } from '../logging/create-logger.js';
import { onParentGone } from './parent-process.js';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * On SIGTERM or SIGINT, or when the launcher that started the process is gone, runs the steps in order (stop intake
 * first, close stores last) and exits; a shutdown that hangs past `timeoutMs` exits non-zero rather than never.
 * The handlers stay installed: a second signal (a terminal's Ctrl-C reaches npm and the launcher, which both pass it
 * on) must not end the process with the default action halfway through its shutdown.
 */
export function onShutdown(logger: Logger, steps: ShutdownStep[], timeoutMs = 15_000): void {
  let started = false;
  const shutdown = async (reason: string) => {
    if (started) {
      logger.info({ reason }, 'already shutting down');
      return;
    }
    started = true;
    logger.info({ reason }, 'shutting down');
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
    process.exit(failed ? 1 : 0);
  };
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, () => void shutdown(signal));
  onParentGone(() => void shutdown('launcher gone'));
}

/** Boot failures (bad configuration, a port in use) end the process with the reason on stderr. */
export function exitOnBootFailure(service: string) {
  return (error: unknown): never => {
    // Written at once: on a pipe, process.stderr writes later, and exit would lose what it had not written yet.
    writeSync(2, `${service}: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  };
}
