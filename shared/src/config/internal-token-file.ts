import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `npm start` keeps the internal token it made when none was configured: in the checkout,
 * outside version control (.gitignore), readable by its owner only. The admin command reads it, so
 * operators of a local stack need not handle the secret; deployments set INTERNAL_TOKEN instead.
 */
export const INTERNAL_TOKEN_FILE = fileURLToPath(new URL('../../../.run/internal-token', import.meta.url));

export function readInternalTokenFile(): string | undefined {
  try {
    const token = readFileSync(INTERNAL_TOKEN_FILE, 'utf8').trim();
    return token.length >= 32 ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The token of the file, made (random, 256 bits) the first time; two first starts at once agree on one. */
export function ensureInternalTokenFile(): string {
  const existing = readInternalTokenFile();
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  mkdirSync(path.dirname(INTERNAL_TOKEN_FILE), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(INTERNAL_TOKEN_FILE, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    const theirs = readInternalTokenFile();
    if (theirs) return theirs;
    throw new Error(`${INTERNAL_TOKEN_FILE} exists but holds no token of 32 characters or more: delete it or set INTERNAL_TOKEN`);
  }
  return token;
}
