import { systemResolver, type Resolver, type WebhookAddressPolicy } from '@comps/shared/webhooks/address-policy';
import type { AccountsDb } from '../db/database.js';
import { SecretBox } from './webhook-secret-box.js';

/** What the webhook procedures work with: the database, the key that seals secrets, the address rules and their resolver, and the clock. */
export interface WebhookContext {
  db: AccountsDb;
  box: SecretBox;
  policy: WebhookAddressPolicy;
  /** The resolver the address rules ask (the system's; a test's own in tests). */
  resolve: Resolver;
  now: () => Date;
}

export interface WebhookOptions {
  /** WEBHOOK_SECRET_KEY: base64 of 32 bytes. */
  secretKey: string;
  policy: WebhookAddressPolicy;
  resolve?: Resolver;
  now?: () => Date;
}

export function createWebhookContext(db: AccountsDb, options: WebhookOptions): WebhookContext {
  return {
    db,
    box: SecretBox.fromBase64(options.secretKey),
    policy: options.policy,
    resolve: options.resolve ?? systemResolver,
    now: options.now ?? (() => new Date()),
  };
}
