import { Pool } from 'undici';

export interface LoadResult {
  concurrency: number;
  requests: number;
  failures: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
  /** A sample body, for inspection. */
  sample: string | null;
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

/**
 * A closed loop: `concurrency` callers, each sending the next request when the last one is
 * answered, for `seconds`. Keep-alive connections, one per caller, as a busy client would hold.
 */
export async function runLoad(url: string, options: { concurrency: number; seconds: number; headers?: Record<string, string>; maxRequests?: number }): Promise<LoadResult> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: options.concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  let sample: string | null = null;
  let sent = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const caller = async () => {
    while (performance.now() < deadline && (options.maxRequests === undefined || sent < options.maxRequests)) {
      sent += 1;
      const begin = performance.now();
      try {
        const response = await pool.request({ path: `${target.pathname}${target.search}`, method: 'GET', headers: options.headers ?? {} });
        const body = await response.body.text();
        latencies.push(performance.now() - begin);
        if (response.statusCode !== 200) failures += 1;
        else sample ??= body;
      } catch {
        failures += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, caller));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    concurrency: options.concurrency,
    requests: latencies.length,
    failures,
    seconds,
    throughput: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    sample,
  };
}
