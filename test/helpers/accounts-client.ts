import { getGlobalDispatcher } from 'undici';
import { eventually, request } from './http-client.js';
import type { PlanId } from '@comps/shared/contract/usage';
import { createAccountsClient, type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';

/** The accounts service's internal procedures, through the client the other services use (with the internal token). */
export function accountsClient(stack: { accountsInternalUrl: string; internalToken: string }, token = stack.internalToken): AccountsClient {
  return createAccountsClient({ url: stack.accountsInternalUrl, internalToken: token, timeoutMs: 10_000, dispatcher: getGlobalDispatcher() });
}

export interface TestWorkspace {
  workspaceId: string;
  apiKey: string;
}

/** A workspace of the test's own, with optional limit overrides. */
export async function createWorkspace(
  stack: { accountsInternalUrl: string; internalToken: string },
  options: {
    plan?: PlanId;
    quota?: number;
    rate?: number;
    concurrency?: number;
    trackedSearches?: number;
    webhookEndpoints?: number;
    name?: string;
  } = {},
): Promise<TestWorkspace> {
  const client = accountsClient(stack);
  const created = await client.workspaces.create.mutate({ name: options.name ?? 'test', planId: options.plan ?? 'starter' });
  const overrides = {
    ...(options.quota !== undefined ? { monthlyQuota: options.quota } : {}),
    ...(options.rate !== undefined ? { rateLimit: options.rate } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.trackedSearches !== undefined ? { trackedSearches: options.trackedSearches } : {}),
    ...(options.webhookEndpoints !== undefined ? { webhookEndpoints: options.webhookEndpoints } : {}),
  };
  if (Object.keys(overrides).length > 0) await client.workspaces.setLimits.mutate({ workspaceId: created.workspaceId, ...overrides });
  return { workspaceId: created.workspaceId, apiKey: created.apiKey.key };
}

/**
 * Raises a workspace's rate (and other limits) and waits until the api enforces them. Its key cache
 * (AUTH_CACHE_TTL_MS, 2 s) keeps the limits it read for that long, where `/usage` reads accounts at
 * once: what the api enforces shows in its answers' `RateLimit-Policy`. A test that changed the limits
 * and went on at once could meet the old ones (a free plan's 10 requests a minute, concurrency 1).
 */
export async function setLimitsInForce(
  stack: { accountsInternalUrl: string; internalToken: string; baseUrl: string },
  workspace: TestWorkspace,
  limits: { rateLimit: number; concurrency?: number; monthlyQuota?: number },
): Promise<void> {
  await accountsClient(stack).workspaces.setLimits.mutate({ workspaceId: workspace.workspaceId, ...limits });
  await eventually(
    'the api enforces the new limits',
    async () => ((await request(stack.baseUrl, '/usage', { apiKey: workspace.apiKey })).headers.get('ratelimit-policy')?.includes(`q=${limits.rateLimit};`) ? true : undefined),
    { intervalMs: 250 },
  );
}
