// PLACEHOLDER: replaced by branch webhooks-pure on merge
import { Agent } from 'undici';
import type { ResolvedAddress } from './address-policy.js';
export function pinnedAgent(address: ResolvedAddress, options?: { connectTimeoutMs?: number }): Agent {
  return new Agent({ connect: { timeout: options?.connectTimeoutMs ?? 10_000, lookup: (_host, _opts, callback) => callback(null, address.address, address.family) } });
}
