import { createHash } from 'node:crypto';

/** `Idempotency-Key`: 1 to 255 printable ASCII characters (contract, "Idempotency-Key"). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/**
 * What makes two requests with one Idempotency-Key the same operation: the method, the path and
 * the parsed parameters or body (defaults filled in). Derived from the parsed value as a whole, so a
 * field added later cannot be left out and let different requests share a key.
 */
export function operationFingerprint(method: string, path: string, parsed: unknown): string {
  return createHash('sha256').update(JSON.stringify([method, path, parsed])).digest('hex');
}
