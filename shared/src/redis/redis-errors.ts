import { AppError } from '../errors/app-error.js';

export function redisUnavailable(cause: unknown): AppError {
  return new AppError('service_unavailable', 'A backing service is unavailable; try again shortly', {
    retryAfter: 2,
    cause,
  });
}

/** Runs a Redis operation, turning any failure of it into `service_unavailable`. */
export async function callRedis<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw redisUnavailable(error);
  }
}
