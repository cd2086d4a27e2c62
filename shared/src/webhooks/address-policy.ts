// PLACEHOLDER: replaced by branch webhooks-pure on merge
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../errors/app-error.js';

/** What the operator allows: `http` URLs (WEBHOOK_ALLOW_HTTP), and hosts exempt from the address rules (WEBHOOK_ALLOWED_HOSTS). */
export interface WebhookAddressPolicy {
  allowHttp: boolean;
  allowedHosts: readonly string[];
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A host name's addresses (the system's resolver, or a test's). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));

function refuse(reason: string): never {
  throw new AppError('invalid_webhook_url', `The webhook URL is refused: ${reason}`, { details: [{ path: 'url', message: reason }] });
}

/** Placeholder rule: loopback only (127.0.0.0/8, ::1, and IPv4-mapped loopback, dotted or in hex as URLs write it). */
function isLoopback(address: string): boolean {
  const lower = address.toLowerCase();
  if (lower === '::1' || lower === '0:0:0:0:0:0:0:1') return true;
  const mapped = lower.startsWith('::ffff:') ? lower.slice(7) : undefined;
  const hex = mapped?.match(/^([0-9a-f]{1,4}):[0-9a-f]{1,4}$/);
  if (hex) return parseInt(hex[1]!, 16) >> 8 === 127;
  const v4 = mapped ?? lower;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * Checks a URL against the address rules and answers it parsed, with the address a delivery connects
 * to. Throws 400 `invalid_webhook_url` with the reason.
 */
export async function checkWebhookUrl(rawUrl: string, policy: WebhookAddressPolicy, resolve: Resolver): Promise<{ url: URL; address: ResolvedAddress }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return refuse('not a URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    refuse(policy.allowHttp ? 'the scheme must be https or http' : 'the scheme must be https');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const allowed = policy.allowedHosts.some((entry) => entry.toLowerCase() === host);
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0) refuse(`the host ${host} does not resolve`);
  if (!allowed) {
    const bad = addresses.find((entry) => isLoopback(entry.address));
    if (bad) refuse(`the host resolves to ${bad.address}, a loopback address`);
  }
  return { url, address: addresses[0]! };
}
