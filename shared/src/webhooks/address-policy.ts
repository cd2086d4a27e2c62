import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../errors/app-error.js';
import { forbiddenRangeOf } from './forbidden-ranges.js';

// The ranges are a module of their own; callers find them beside the rules that use them.
export { forbiddenRangeOf };

/**
 * What the operator allows beyond the contract's defaults (`WEBHOOK_ALLOW_HTTP`,
 * `WEBHOOK_ALLOWED_HOSTS`). `allowedHosts` holds host names or IP addresses (an IPv6 one with or
 * without brackets), matched case-insensitively and exactly (no wildcard, no port: every port of a
 * listed host is allowed); a URL whose host is listed skips the address ranges check.
 */
export interface WebhookAddressPolicy {
  allowHttp: boolean;
  allowedHosts: readonly string[];
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** The addresses of a host name: the services use `systemResolver`, tests their own. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

function refused(reason: string, cause?: unknown): AppError {
  return new AppError('invalid_webhook_url', reason, { details: [{ path: 'url', message: reason }], cause });
}

/** Every address the system's resolver gives (the hosts file included), in its order. */
export const systemResolver: Resolver = async (hostname) => {
  try {
    const answers = await lookup(hostname, { all: true, verbatim: true });
    return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  } catch (error) {
    throw refused('the host does not resolve', error);
  }
};

/**
 * A host as it is compared with `allowedHosts`: lower case, without the brackets of an IPv6 literal
 * or a trailing dot, and an IPv6 address in its one canonical spelling (so `::FFFF:127.0.0.1` and
 * `[::ffff:7f00:1]` are the same host).
 */
export function canonicalHost(host: string): string {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isIP(bare) !== 6 || bare.includes('%')) return bare;
  // The URL parser writes IPv6 addresses as RFC 5952 says; a zone id (which it refuses) stays as written.
  return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
}

/**
 * Checks a webhook URL against the contract's address rules, at registration and again before every
 * delivery: http(s) only, https unless the operator allows http, no credentials, and every address
 * of the host outside the refused ranges unless the operator lists the host (one inside is enough
 * to refuse: a name that points inside the network is not a receiver's, whatever else it points
 * to). The answer holds the address the delivery must connect to (`pinnedAgent`), so that a second
 * DNS answer cannot differ from the checked one. Refusals are `invalid_webhook_url` with a reason
 * the endpoint's owner can act on.
 */
export async function checkWebhookUrl(rawUrl: string, policy: WebhookAddressPolicy, resolve: Resolver): Promise<{ url: URL; address: ResolvedAddress }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch (error) {
    throw refused('the URL is not a valid absolute URL', error);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw refused(policy.allowHttp ? 'the URL must start with https:// or http://' : 'the URL must start with https://');
  }
  if (url.username !== '' || url.password !== '') throw refused('the URL must not contain a user name or password');

  const host = canonicalHost(url.hostname);
  const family = isIP(host);
  const addresses: ResolvedAddress[] = family === 4 || family === 6 ? [{ address: host, family }] : await resolve(url.hostname).catch((error: unknown) => {
    // Whatever resolver is in use, a name it cannot answer for is the caller's URL's problem.
    throw error instanceof AppError ? error : refused('the host does not resolve', error);
  });
  const [first] = addresses;
  if (!first) throw refused('the host does not resolve');
  if (policy.allowedHosts.some((allowed) => canonicalHost(allowed) === host)) return { url, address: first };

  for (const { address } of addresses) {
    const range = forbiddenRangeOf(address);
    if (range === null) continue;
    // A name's address is not told: it would map the deployment's internal names for anyone with a key.
    const where = family === 0 ? `the host ${url.hostname} resolves to an address` : `the address ${address}`;
    throw refused(`${where}, which is in a range webhooks are not sent to: ${range}`);
  }
  return { url, address: first };
}
