import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * A key just created is shown once, on the page the browser is sent to after the form (so that a
 * reload cannot create another key, nor show this one again). It travels there in a short-lived
 * cookie, sealed with AES-256-GCM under a key derived from the session id: the database never holds
 * it, and the cookie alone, without its session, opens nothing.
 */
const PURPOSE = 'comps new API key v1';

export interface NewKeyFlash {
  apiKeyId: string;
  key: string;
}

function keyOf(sessionId: string): Buffer {
  return createHmac('sha256', sessionId).update(PURPOSE).digest();
}

export function sealNewKey(sessionId: string, flash: NewKeyFlash): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(sessionId), iv);
  cipher.setAAD(Buffer.from(PURPOSE));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(flash), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The flash, or null when it was not sealed for this session (or was altered). */
export function openNewKey(sessionId: string, value: string): NewKeyFlash | null {
  try {
    const raw = Buffer.from(value, 'base64url');
    if (raw.length < 29) return null;
    const decipher = createDecipheriv('aes-256-gcm', keyOf(sessionId), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(PURPOSE));
    decipher.setAuthTag(raw.subarray(12, 28));
    const parsed = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as Partial<NewKeyFlash>;
    return typeof parsed.apiKeyId === 'string' && typeof parsed.key === 'string' ? { apiKeyId: parsed.apiKeyId, key: parsed.key } : null;
  } catch {
    return null;
  }
}
