import { randomInt } from 'node:crypto';
import { hashApiKey } from '@comps/shared/api-key-format';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;
const DISPLAY_PREFIX_LENGTH = 6;

export interface ApiKeySecret {
  key: string;
  hash: string;
  prefix: string;
  lastFour: string;
}

/** A new key: 40 base62 characters from the CSPRNG (about 238 bits), shown once and stored only as a hash. */
export function generateApiKey(): ApiKeySecret {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i += 1) secret += BASE62[randomInt(BASE62.length)];
  const key = `sk_${secret}`;
  return {
    key,
    hash: hashApiKey(key),
    prefix: `sk_${secret.slice(0, DISPLAY_PREFIX_LENGTH)}`,
    lastFour: secret.slice(-4),
  };
}
