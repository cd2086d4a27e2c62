import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import type { AccountsRouter } from '@comps/accounts/trpc-router';
import type { PlanId } from '@comps/shared/contract/usage';
import type { TestStack } from './test-stack.js';

export type TestAccountsClient = TRPCClient<AccountsRouter>;

/** The accounts service's internal tRPC, as the other services call it (with the internal token). */
export function accountsClient(stack: TestStack, token = stack.internalToken): TestAccountsClient {
  return createTRPCClient<AccountsRouter>({
    links: [httpLink({ url: `${stack.accountsInternalUrl}/trpc`, headers: { 'x-internal-token': token } })],
  });
}

export interface TestWorkspace {
  workspaceId: string;
  apiKey: string;
}

/** A workspace of the test's own, with optional limit overrides. */
export async function createWorkspace(
  stack: TestStack,
  options: { plan?: PlanId; quota?: number; rate?: number; concurrency?: number; name?: string } = {},
): Promise<TestWorkspace> {
  const client = accountsClient(stack);
  const created = await client.workspaces.create.mutate({ name: options.name ?? 'test', planId: options.plan ?? 'starter' });
  if (options.quota !== undefined || options.rate !== undefined || options.concurrency !== undefined) {
    await client.workspaces.setLimits.mutate({
      workspaceId: created.workspaceId,
      ...(options.quota !== undefined ? { monthlyQuota: options.quota } : {}),
      ...(options.rate !== undefined ? { rateLimit: options.rate } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    });
  }
  return { workspaceId: created.workspaceId, apiKey: created.apiKey.key };
}
