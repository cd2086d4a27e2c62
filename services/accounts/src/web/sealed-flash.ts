import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * A secret shown once (a new API key, a webhook signing secret) is shown on the page the browser is
 * sent to after the form, so that a reload can neither make another nor show this one again. It
 * travels there in a short-lived cookie, sealed with AES-256-GCM under a key derived from the
 * session id and the flash's purpose: the database never holds it, the cookie alone, without its
 * session, opens nothing, and a flash of one purpose never opens as another's.
 */
function keyOf(sessionId: string, purpose: string): Buffer {
  return createHmac('sha256', sessionId).update(purpose).digest();
}

export function sealFlash(sessionId: string, purpose: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(sessionId, purpose), iv);
  cipher.setAAD(Buffer.from(purpose));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** What was sealed (for the caller to check its shape), or null when it was not sealed for this session and purpose (or was altered). */
export function openFlash(sessionId: string, purpose: string, value: string): unknown {
  try {
    const raw = Buffer.from(value, 'base64url');
    if (raw.length < 29) return null;
    const decipher = createDecipheriv('aes-256-gcm', keyOf(sessionId, purpose), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
