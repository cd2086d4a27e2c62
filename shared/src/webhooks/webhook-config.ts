// PLACEHOLDER: replaced by branch webhooks-pure on merge
import { z } from 'zod';
import type { WebhookAddressPolicy } from './address-policy.js';

/** The operator's webhook address settings, for a service's environment schema (spread into its z.object). */
export const webhookEnvFields = {
  WEBHOOK_ALLOW_HTTP: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host.length > 0),
    ),
};

export type WebhookEnv = z.output<z.ZodObject<typeof webhookEnvFields>>;

export function webhookPolicyFrom(env: WebhookEnv): WebhookAddressPolicy {
  return { allowHttp: env.WEBHOOK_ALLOW_HTTP, allowedHosts: env.WEBHOOK_ALLOWED_HOSTS };
}
