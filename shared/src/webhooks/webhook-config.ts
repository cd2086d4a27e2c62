// PLACEHOLDER: replaced by branch webhooks-pure on merge
import { z } from 'zod';
import type { WebhookAddressPolicy } from './address-policy.js';
export const webhookEnvFields = {
  WEBHOOK_ALLOW_HTTP: z.enum(['true', 'false']).default('false'),
  WEBHOOK_ALLOWED_HOSTS: z.string().default(''),
};
export function webhookPolicyFrom(env: { WEBHOOK_ALLOW_HTTP: 'true' | 'false'; WEBHOOK_ALLOWED_HOSTS: string }): WebhookAddressPolicy {
  return { allowHttp: env.WEBHOOK_ALLOW_HTTP === 'true', allowedHosts: env.WEBHOOK_ALLOWED_HOSTS.split(',').map((host) => host.trim()).filter(Boolean) };
}
