import type { Logger } from '../logging/create-logger.js';

export interface PeriodicTask {
  /** Stops scheduling and waits for a run in progress. */
  stop(): Promise<void>;
  /** Runs now (after a run in progress), for tests and operators. */
  runNow(): Promise<void>;
}

/** Runs `work` every `intervalMs`, never two runs at once; a failed run is logged and the next one comes. */
export function startPeriodicTask(name: string, intervalMs: number, work: () => Promise<void>, logger: Logger): PeriodicTask {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        await work();
      } catch (error) {
        logger.warn({ task: name, err: error instanceof Error ? error.message : String(error) }, 'periodic task failed');
      }
    });
    return running;
  };
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
    runNow: run,
  };
}
