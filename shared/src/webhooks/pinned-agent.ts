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

/**
 * The pinned agents of a process, one per checked address, kept for their open connections: a busy
 * endpoint's deliveries reuse them instead of connecting for every attempt. An agent serves only
 * URLs whose check gave its address, so reuse never sends a delivery elsewhere. The least recently
 * used beyond `max` is closed.
 */
export class PinnedAgents {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly options: { connectTimeoutMs?: number; max?: number } = {},
  ) {}

  for(address: ResolvedAddress): Agent {
    const key = `${address.family}/${address.address}`;
    const agent = this.agents.get(key);
    if (agent) {
      this.agents.delete(key);
      this.agents.set(key, agent);
      return agent;
    }
    const made = pinnedAgent(address, this.options);
    this.agents.set(key, made);
    if (this.agents.size > (this.options.max ?? 100)) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldestKey);
      void oldest.close().catch(() => undefined);
    }
    return made;
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((agent) => agent.destroy().catch(() => undefined)));
  }
}
