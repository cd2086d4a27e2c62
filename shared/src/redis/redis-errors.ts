import { AppError } from '../errors/app-error.js';

/**
 * How long one Redis call may take. node-redis drops a command's own timeout once the command is
 * written to the socket, so a Redis that stops answering (paused, swapping, a network that black-holes
 * packets) would hold every caller for as long as it hangs; this deadline is ours and always fires.
 */
export const REDIS_CALL_DEADLINE_MS = 1000;

export function redisUnavailable(cause: unknown): AppError {
  return new AppError('service_unavailable', 'A backing service is unavailable; try again shortly', {
    retryAfter: 2,
    cause,
  });
}

/**
 * Runs a Redis operation within a deadline, turning any failure of it (or no answer in time) into
 * `service_unavailable`. A command that answers after the deadline is ignored: everything we keep in
 * Redis is a lease or a counter that expires, or an operation safe to repeat.
 */
export async function callRedis<T>(operation: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let lastLook: NodeJS.Immediate | undefined;
  const expired = new Promise<never>((_, reject) => {
    // The deadline passes once the sockets have been read after it: a process the machine did not run for a second
    // (a host this busy was seen in CI, a sign-in failing with 503) runs its due timers before it reads its sockets,
    // and an answer that had come in time would lose to them. setImmediate runs after that read.
    timer = setTimeout(() => {
      lastLook = setImmediate(() => reject(new Error(`Redis did not answer within ${REDIS_CALL_DEADLINE_MS} ms`)));
    }, REDIS_CALL_DEADLINE_MS);
  });
  try {
    return await Promise.race([operation(), expired]);
  } catch (error) {
    throw redisUnavailable(error);
  } finally {
    clearTimeout(timer);
    clearImmediate(lastLook);
  }
}
