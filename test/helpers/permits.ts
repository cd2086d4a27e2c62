import { eventually } from './http-client.js';

/** What the helpers below need of a Redis client. */
interface PermitReader {
  zCard(key: string): Promise<number>;
}

/**
 * The marketplace calls in flight of a workspace, or of the whole deployment without one: their permits, members of
 * a sorted set scored by their expiry (shared/src/metering/admission.ts). A call holding its permit reached an api or
 * the jobs service and is calling the marketplace: tests wait for that rather than sleep and assume it.
 */
export function permitsKey(redisKeyPrefix: string, workspaceId?: string): string {
  return `${redisKeyPrefix}upstream:in-flight${workspaceId === undefined ? '' : `:${workspaceId}`}`;
}

/** Until exactly `count` permits are held (of the workspace, or of the deployment), however slow the machine. */
export function untilPermitsHeld(redis: PermitReader, redisKeyPrefix: string, count: number, workspaceId?: string): Promise<true> {
  const key = permitsKey(redisKeyPrefix, workspaceId);
  return eventually(`${count} marketplace calls in flight (${key})`, async () => ((await redis.zCard(key)) === count ? true : undefined), { intervalMs: 20 });
}
