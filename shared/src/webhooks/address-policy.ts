// PLACEHOLDER: replaced by branch webhooks-pure on merge
import { AppError } from '../errors/app-error.js';

export interface WebhookAddressPolicy {
  allowHttp: boolean;
  allowedHosts: readonly string[];
}
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;
export const systemResolver: Resolver = async () => [];
export async function checkWebhookUrl(rawUrl: string, policy: WebhookAddressPolicy, resolve: Resolver): Promise<{ url: URL; address: ResolvedAddress }> {
  const url = new URL(rawUrl);
  if (url.protocol !== 'https:' && !policy.allowHttp) throw new AppError('invalid_webhook_url', 'https only');
  const [address] = await resolve(url.hostname);
  if (!address) throw new AppError('invalid_webhook_url', 'no address');
  return { url, address };
}
