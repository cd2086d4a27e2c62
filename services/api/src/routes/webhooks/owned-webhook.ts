import type { Webhook } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';

/**
 * The endpoint, if the workspace owns it: accounts answers 404 `webhook_not_found` for an unknown
 * one or one of another workspace. The routes of deliveries ask this before the jobs service, which
 * knows deliveries, not who owns their endpoints.
 */
export function ownedWebhook(accounts: AccountsClient, workspaceId: string, webhookId: string): Promise<Webhook> {
  return accounts.webhooks.get.query({ workspaceId, webhookId });
}
