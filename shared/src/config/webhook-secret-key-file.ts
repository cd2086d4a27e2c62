import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWebhookSecretKey } from './env-fields.js';

/**
 * Where `npm start` keeps the key that encrypts webhook secrets when WEBHOOK_SECRET_KEY is not set: in
 * the checkout, outside version control (.gitignore), readable by its owner only, beside the internal
 * token. Losing it makes every stored webhook secret unreadable (endpoints then need a new secret);
 * deployments set WEBHOOK_SECRET_KEY instead.
 */
export const WEBHOOK_SECRET_KEY_FILE = fileURLToPath(new URL('../../../.run/webhook-secret-key', import.meta.url));

export function readWebhookSecretKeyFile(): string | undefined {
  try {
    const key = readFileSync(WEBHOOK_SECRET_KEY_FILE, 'utf8').trim();
    return isWebhookSecretKey(key) ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The key of the file (base64 of 32 random bytes), made the first time; two first starts at once agree on one. */
export function ensureWebhookSecretKeyFile(): string {
  const existing = readWebhookSecretKeyFile();
  if (existing) return existing;
  const key = randomBytes(32).toString('base64');
  mkdirSync(path.dirname(WEBHOOK_SECRET_KEY_FILE), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(WEBHOOK_SECRET_KEY_FILE, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    const theirs = readWebhookSecretKeyFile();
    if (theirs) return theirs;
    throw new Error(`${WEBHOOK_SECRET_KEY_FILE} exists but holds no key (base64 of 32 bytes): restore it, or set WEBHOOK_SECRET_KEY`);
  }
  return key;
}
