import { z } from 'zod';

/** Building blocks for the services' environment schemas; each service composes its own. */

export const envPort = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

export const envPositiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

export const envNonNegativeInt = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/** `true` or `false`, nothing else: a misspelt value stops the start instead of quietly meaning one of them. */
export const envBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .default(fallback);

export const logLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

export const DEFAULT_DATABASE_URL = 'mysql://root@127.0.0.1:3306/comps';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const databaseUrlSchema = z
  .string()
  .default(DEFAULT_DATABASE_URL)
  .refine((value) => /^mysql:\/\/[^/]+\/[A-Za-z0-9_]+(\?.*)?$/.test(value), {
    message: 'must look like mysql://user[:password]@host:port/database',
  });

export const redisUrlSchema = z
  .string()
  .default(DEFAULT_REDIS_URL)
  .refine((value) => /^rediss?:\/\//.test(value), { message: 'must be a redis:// or rediss:// URL' });

export const internalTokenSchema = z
  .string({ error: 'is required (a shared secret of at least 32 characters)' })
  .min(32, { error: 'must be at least 32 characters' });

export const bindHostSchema = z.string().min(1).default('127.0.0.1');

/** Base64 (standard alphabet, padded) of exactly 32 bytes, as `openssl rand -base64 32` prints. */
export function isWebhookSecretKey(value: string): boolean {
  return /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, 'base64').length === 32;
}

/** The AES-256 key that encrypts webhook secrets at rest (accounts). */
export const webhookSecretKeySchema = z
  .string({ error: 'is required (base64 of 32 random bytes, e.g. `openssl rand -base64 32`)' })
  .trim()
  .refine(isWebhookSecretKey, { error: 'must be base64 of exactly 32 bytes (44 characters, e.g. `openssl rand -base64 32`)' });
