import { createHash } from 'node:crypto';

/** `sk_` and at least 32 base62 characters; anything else is refused before any lookup. */
export const API_KEY_PATTERN = /^sk_[0-9A-Za-z]{32,128}$/;

/** Keys are looked up, and stored, only as this digest. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
