import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work done in steps: a generator that yields between them (a page's parse yields after each row). */
export type Steps<T> = Generator<void, T, void>;

/** Every step at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Every step, `stepsPerTurn` at a time, the event loop let in between: a page's parse (20–50 ms of
 * one thread) no longer holds back what waits on the thread meanwhile, such as the answers of the
 * database statements that store the page before it. `signal` abandons the work after a turn
 * (rejecting with its reason); the generator's `finally` blocks run.
 */
export async function runStepsInTurns<T>(steps: Steps<T>, stepsPerTurn: number, signal?: AbortSignal): Promise<T> {
  if (!Number.isInteger(stepsPerTurn) || stepsPerTurn < 1) throw new RangeError(`stepsPerTurn must be a positive integer, not ${stepsPerTurn}`);
  try {
    for (;;) {
      for (let taken = 0; taken < stepsPerTurn; taken += 1) {
        const step = steps.next();
        if (step.done) return step.value;
      }
      await nextTurn();
      signal?.throwIfAborted();
    }
  } finally {
    steps.return(undefined as never);
  }
}
