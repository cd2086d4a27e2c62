import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import type { ResolvedAddress } from './address-policy.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * An undici Agent whose every connection goes to `address` (the one `checkWebhookUrl` checked),
 * whatever host the URL names: the socket's DNS lookup is replaced by one that always answers it, so
 * a name cannot answer the check with a public address and the connection with an internal one (DNS
 * rebinding). Only the lookup changes: TLS still sends the URL's host name (SNI) and checks the
 * certificate against it. Undici's `request` through it follows no redirect (no redirect
 * interceptor is added); `fetch` would follow them itself unless given `redirect: 'manual'`.
 */
export function pinnedAgent(address: ResolvedAddress, options: { connectTimeoutMs?: number } = {}): Agent {
  const pinnedLookup = (_hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    // Node asks for every address when it races families (autoSelectFamily), for one otherwise.
    if (lookupOptions.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  return new Agent({ connect: { lookup: pinnedLookup, ...(options.connectTimeoutMs === undefined ? {} : { timeout: options.connectTimeoutMs }) } });
}
