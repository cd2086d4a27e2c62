import { isIP } from 'node:net';
import { z } from 'zod';
import { envBoolean } from '../config/env-fields.js';
import { canonicalHost, type WebhookAddressPolicy } from './address-policy.js';

/**
 * Whether `host` (canonical) is a bare host name or IP address: what a URL's host would be, without
 * scheme, port, path or credentials. A `*` is refused too: the URL parser takes it, but hosts are
 * matched exactly, and an operator who writes one expects a wildcard.
 */
function isBareHost(host: string): boolean {
  if (host === '' || host.includes('*')) return false;
  const written = isIP(host) === 6 ? `[${host}]` : host;
  return URL.canParse(`http://${written}/`) && canonicalHost(new URL(`http://${written}/`).hostname) === host;
}

const allowedHostsSchema = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const hosts = value.split(',').map((entry) => entry.trim()).filter(Boolean);
    const bad = hosts.filter((entry) => !isBareHost(canonicalHost(entry)));
    if (bad.length > 0) {
      ctx.addIssue({ code: 'custom', message: `must be host names or IP addresses, comma-separated, without scheme, port, path or wildcard: ${bad.join(', ')}` });
      return z.NEVER;
    }
    return hosts.map(canonicalHost);
  });

/**
 * The operator's webhook settings, in the environment of the services that check webhook URLs (the
 * accounts service at registration, the jobs processes before every delivery): both must apply the
 * same rules.
 */
export const webhookEnvFields = {
  /** `true` lets endpoints use http:// (a local receiver in development or tests); https only otherwise. */
  WEBHOOK_ALLOW_HTTP: envBoolean(false),
  /** Hosts whose addresses are not checked against the refused ranges: an internal receiver the operator trusts. */
  WEBHOOK_ALLOWED_HOSTS: allowedHostsSchema,
};

type WebhookEnv = z.output<z.ZodObject<typeof webhookEnvFields>>;

export function webhookPolicyFrom(env: WebhookEnv): WebhookAddressPolicy {
  return { allowHttp: env.WEBHOOK_ALLOW_HTTP, allowedHosts: env.WEBHOOK_ALLOWED_HOSTS };
}
