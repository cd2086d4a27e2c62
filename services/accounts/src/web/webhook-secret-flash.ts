import { openFlash, sealFlash } from './sealed-flash.js';

/** A webhook endpoint's signing secret just made (at creation or a rotation), on its way to the endpoint's page that shows it once (see sealed-flash.ts). */
const PURPOSE = 'comps new webhook secret v1';

export interface WebhookSecretFlash {
  webhookId: string;
  secret: string;
  /** Set after a rotation: until when the old secret signs too. */
  previousSecretExpiresAt: string | null;
}

export function sealWebhookSecret(sessionId: string, flash: WebhookSecretFlash): string {
  return sealFlash(sessionId, PURPOSE, flash);
}

/** The flash, or null when it was not sealed for this session (or was altered). */
export function openWebhookSecret(sessionId: string, value: string): WebhookSecretFlash | null {
  const parsed = openFlash(sessionId, PURPOSE, value) as Partial<WebhookSecretFlash> | null;
  if (!parsed || typeof parsed.webhookId !== 'string' || typeof parsed.secret !== 'string') return null;
  const expires = parsed.previousSecretExpiresAt;
  return { webhookId: parsed.webhookId, secret: parsed.secret, previousSecretExpiresAt: typeof expires === 'string' ? expires : null };
}
