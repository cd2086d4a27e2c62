import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed secret that does not open: tampered with, copied from another endpoint's row, or sealed under another key. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/**
 * Seals webhook secrets for storage: AES-256-GCM under the configured key (WEBHOOK_SECRET_KEY), a
 * random 12-byte IV per seal, and the endpoint's id as additional authenticated data, so that a
 * ciphertext copied to another row does not open there. The stored form is
 * `v1:<iv>:<tag>:<ciphertext>` (base64 each); the version names the scheme and key, so that a later
 * key can be introduced beside this one and rows re-sealed.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the webhook secret key must be 32 bytes');
    this.#key = Buffer.from(key);
  }

  static fromBase64(keyBase64: string): SecretBox {
    return new SecretBox(Buffer.from(keyBase64, 'base64'));
  }

  seal(plaintext: string, endpointId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(endpointId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
  }

  open(sealed: string, endpointId: string): string {
    const [version, iv, tag, ciphertext, ...rest] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) {
      throw new SecretBoxError(`a sealed webhook secret of an unknown form (${version ?? 'empty'})`);
    }
    const ivBytes = Buffer.from(iv, 'base64');
    const tagBytes = Buffer.from(tag, 'base64');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new SecretBoxError('a sealed webhook secret of a wrong shape');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(endpointId, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`the secret of webhook ${endpointId} does not open: another endpoint's, tampered with, or sealed under another WEBHOOK_SECRET_KEY`);
    }
  }
}
