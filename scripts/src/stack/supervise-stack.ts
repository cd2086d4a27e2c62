import { setTimeout as sleep } from 'node:timers/promises';
import { describeExit, type ManagedProcess } from './managed-process.js';

interface RestartPolicy {
  /** Crashes of one process counted over this window... */
  windowMs: number;
  /** ...up to this many: the crash that reaches it stops the stack instead of another restart. */
  maxCrashes: number;
  /** The wait before the n-th restart within the window is firstDelayMs · 2^(n-1), at most maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** Waits of 0.5, 1, 2 and 4 s; the fifth crash of one process within a minute stops the stack. */
const RESTART_POLICY: RestartPolicy = { windowMs: 60_000, maxCrashes: 5, firstDelayMs: 500, maxDelayMs: 8_000 };

export interface SuperviseOptions {
  /** Aborted when the stack is told to stop: no restart begins after that, and one under way gives up. */
  signal: AbortSignal;
  log: (line: string) => void;
  /** A process crashed too often (the reason says how often): the caller stops the stack. */
  onGiveUp: (reason: string) => void;
}

/** The delay before a restart, given how many crashes (this one included) fell within the window. */
function restartDelay(policy: RestartPolicy, crashesInWindow: number): number {
  return Math.min(policy.firstDelayMs * 2 ** Math.max(0, crashesInWindow - 1), policy.maxDelayMs);
}

/**
 * Restarts a process of the stack that crashes, with a growing wait (logged), until the same process crashes
 * `maxCrashes` times within `windowMs`: then the stack is stopped rather than left half working. A restart that
 * fails (the process exits again or is not ready in time) counts as one more crash.
 */
export function superviseStack(processes: ManagedProcess[], options: SuperviseOptions): void {
  const policy = RESTART_POLICY;
  const { signal, log } = options;
  for (const process of processes) {
    const crashes: number[] = [];
    const recover = async (reason: string) => {
      while (!signal.aborted) {
        const now = Date.now();
        crashes.push(now);
        while (crashes.length > 0 && crashes[0]! <= now - policy.windowMs) crashes.shift();
        if (crashes.length >= policy.maxCrashes) {
          options.onGiveUp(`${process.name} ${reason}: ${crashes.length} crashes within ${policy.windowMs / 1000} s`);
          return;
        }
        const delay = restartDelay(policy, crashes.length);
        log(`${process.name} ${reason}; restarting in ${delay} ms (crash ${crashes.length} of ${policy.maxCrashes} allowed within ${policy.windowMs / 1000} s)`);
        await sleep(delay, undefined, { signal }).catch(() => undefined);
        if (signal.aborted) return;
        const started = Date.now();
        try {
          await process.start(signal);
          log(`${process.name} restarted (pid ${process.pid}, ready in ${Date.now() - started} ms)`);
          return;
        } catch (error) {
          if (signal.aborted) return;
          reason = `failed to restart: ${error instanceof Error ? error.message : String(error)}`;
        }
      }
    };
    process.onUnexpectedExit((exit) => void recover(describeExit(exit)));
  }
}
