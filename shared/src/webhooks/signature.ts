import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` and base64 of 32 random bytes (contract, "Webhooks"). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The `webhook-signature` header of one attempt: `v1,<base64 HMAC-SHA256>` per secret, space-separated,
 * in the order given (the current secret, then the one a rotation keeps for its overlap).
 *
 * Signed by Standard Webhooks' own library, so that what we send is what every receiver's library
 * computes. The message id and timestamp must not contain a `.`, the separator of the signed content
 * (the specification's warning): ours never do, and a caller that passes one is refused here.
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestamp: number, body: string): string {
  if (secrets.length === 0) throw new Error('a webhook is signed with at least one secret');
  if (messageId === '' || messageId.includes('.')) throw new Error(`a webhook message id must be non-empty and without ".": ${JSON.stringify(messageId)}`);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new Error(`a webhook timestamp is whole Unix seconds: ${timestamp}`);
  // The library rounds a Date down to whole seconds, so an integer timestamp comes back unchanged.
  const at = new Date(timestamp * 1000);
  return secrets
    .map((secret) => {
      // The library also takes a bare base64 key; ours are always stored and shown with the prefix.
      if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
      return new Webhook(secret).sign(messageId, at, body);
    })
    .join(' ');
}
