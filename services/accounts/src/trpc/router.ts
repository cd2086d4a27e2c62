import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { assertImplements } from '@comps/shared/internal/procedure-contract';
import { authenticateApiKey } from './procedures/authenticate-api-key.js';
import { createApiKey } from './procedures/create-api-key.js';
import { createUser } from './procedures/create-user.js';
import { createWebhookEndpoint } from './procedures/create-webhook.js';
import { createWorkspace } from './procedures/create-workspace.js';
import { deleteWebhookEndpoint } from './procedures/delete-webhook.js';
import { getUsage } from './procedures/get-usage.js';
import { getWebhookEndpoint } from './procedures/get-webhook.js';
import { getWorkspace } from './procedures/get-workspace.js';
import { issuePasswordLink } from './procedures/issue-password-link.js';
import { leaseAllowance } from './procedures/lease-allowance.js';
import { listHistory } from './procedures/list-history.js';
import { listKeyChanges } from './procedures/list-key-changes.js';
import { listKeyFingerprints } from './procedures/list-key-fingerprints.js';
import { listWebhookSubscribers } from './procedures/list-webhook-subscribers.js';
import { listWebhookEndpoints } from './procedures/list-webhooks.js';
import { noteWebhookEndpointOutcome } from './procedures/note-webhook-outcome.js';
import { ping } from './procedures/ping.js';
import { purge } from './procedures/purge.js';
import { recordHistory } from './procedures/record-history.js';
import { releaseExpiredReservations } from './procedures/release-expired-reservations.js';
import { releaseQuota } from './procedures/release-quota.js';
import { renewAllowances } from './procedures/renew-allowances.js';
import { reserveQuota } from './procedures/reserve-quota.js';
import { returnAllowance } from './procedures/return-allowance.js';
import { revokeApiKey } from './procedures/revoke-api-key.js';
import { rotateWebhookEndpointSecret } from './procedures/rotate-webhook-secret.js';
import { setWorkspaceLimits } from './procedures/set-workspace-limits.js';
import { settleQuota } from './procedures/settle-quota.js';
import { settleQuotaBatch } from './procedures/settle-quota-batch.js';
import { signWebhookEndpointMessage } from './procedures/sign-webhook-message.js';
import { updateWebhookEndpoint } from './procedures/update-webhook.js';
import { router } from './trpc.js';

/** The procedures of `accountsContract` (shared/src/internal/accounts), which the other services call. */
export const accountsRouter = router({
  apiKeys: router({ authenticate: authenticateApiKey, create: createApiKey, revoke: revokeApiKey, fingerprints: listKeyFingerprints, changes: listKeyChanges }),
  workspaces: router({ create: createWorkspace, get: getWorkspace, setLimits: setWorkspaceLimits }),
  users: router({ create: createUser, issuePasswordLink }),
  quota: router({ reserve: reserveQuota, settle: settleQuota, settleBatch: settleQuotaBatch, release: releaseQuota, leaseAllowance, renewAllowances, returnAllowance }),
  usage: router({ get: getUsage }),
  history: router({ record: recordHistory, list: listHistory }),
  webhooks: router({
    create: createWebhookEndpoint,
    list: listWebhookEndpoints,
    get: getWebhookEndpoint,
    update: updateWebhookEndpoint,
    delete: deleteWebhookEndpoint,
    rotateSecret: rotateWebhookEndpointSecret,
    subscribers: listWebhookSubscribers,
    sign: signWebhookEndpointMessage,
    noteOutcome: noteWebhookEndpointOutcome,
  }),
  maintenance: router({ releaseExpiredReservations, purge }),
  health: router({ ping }),
});

assertImplements(accountsRouter, accountsContract, 'accounts');
