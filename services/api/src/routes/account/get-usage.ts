import { usageSchema } from '@comps/shared/contract/usage';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { QuotaAllowances } from '@comps/shared/metering/quota-allowances';
import type { SettlementOutbox } from '@comps/shared/metering/settlement-outbox';
import { defineRoute } from '../../http/route-definition.js';
import { readUsage } from '../../usage/read-usage.js';
import { USAGE_EXAMPLE } from '../examples.js';

/** `GET /usage`: the caller's plan and quota, counting successes answered but not yet settled. Not charged. */
export function getUsageRoute(deps: { accounts: AccountsClient; settlements: SettlementOutbox; allowances?: QuotaAllowances | undefined }) {
  return defineRoute({
    method: 'GET',
    path: '/usage',
    operationId: 'getUsage',
    summary: 'Plan and quota of the caller',
    description: 'Not charged.',
    tag: 'Account',
    success: { status: 200, schema: usageSchema, description: 'The usage' },
    example: USAGE_EXAMPLE,
    handle: async ({ principal, signal }) => {
      const usage = await readUsage(deps, principal.workspaceId, signal);
      return { kind: 'json', status: 200, body: usage, quota: { limit: usage.plan.monthlyQuota, used: usage.used, remaining: usage.remaining } };
    },
  });
}
