/**
 * When to try again after a failure: exponential backoff with jitter, a bounded number of times.
 * Pure (the random source is given), so every decision can be tested exactly.
 */
export interface RetryPolicy {
  /** Tries after the first; 0 never retries. */
  retries: number;
  /** The wait before the first retry; each later one waits twice as long as the one before. */
  baseDelayMs: number;
  /** No wait is longer than this (before jitter). */
  maxDelayMs: number;
  /** Up to this share of the wait is added at random (0 to 1), so that many retries do not meet again at once. */
  jitter: number;
}

/**
 * The wait before the next try, after `failures` failures in a row (1 for the first), or null once
 * the retries are spent. `random` returns a number in [0, 1).
 */
export function retryDelayMs(policy: RetryPolicy, failures: number, random: () => number): number | null {
  if (failures < 1 || failures > policy.retries) return null;
  const wait = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
  return Math.round(wait * (1 + policy.jitter * random()));
}
