import { request } from 'undici';
import { WEBHOOK_LIMITS } from '@comps/shared/contract/webhook';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { Logger } from '@comps/shared/logging/create-logger';
import { checkWebhookUrl, type Resolver, type WebhookAddressPolicy } from '@comps/shared/webhooks/address-policy';
import type { PinnedAgents } from '@comps/shared/webhooks/pinned-agent';
import { nextAttemptDelayMs, retryAfterMsOf } from '@comps/shared/webhooks/retry-schedule';
import type { JobsDb } from '../db/database.js';
import type { TaskContext, TaskHandler, TaskOutcome } from '../tasks/task-runner.js';
import { endWithoutAttempt, findDelivery, noteUnsigned, recordAttempt } from './delivery-repository.js';
import { DELIVERY_TASK } from './delivery-task.js';

export interface DeliveryDeps {
  db: JobsDb;
  /** Signs each attempt and hears its outcome: the endpoints and their secrets are accounts'. */
  accounts: Pick<AccountsClient, 'webhooks'>;
  policy: WebhookAddressPolicy;
  resolve: Resolver;
  /** Connections to the checked addresses, kept between attempts. */
  agents: PinnedAgents;
  /** The waits before the attempts after the first (the contract's schedule unless configured). */
  retryDelaysMs: readonly number[];
  logger: Logger;
  now: () => Date;
  random: () => number;
}

/** What one attempt gave: the status code answered, or why there was none. */
interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  retryAfterMs: number | null;
}

/** How long a delivery that accounts could not sign waits before it is tried again. */
const UNSIGNED_RETRY_MS = 60_000;

/** An answer's body is read (so the connection can be reused) up to this much, then dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Webhook deliveries on the task runner: each delivery's task makes one attempt at a time, whatever
 * the number of jobs processes (the task's lease). An attempt asks accounts for the endpoint's URL
 * and the message's signature, checks the URL's addresses again (the connection goes to the address
 * checked, never to a second lookup's), and POSTs the body made once for every attempt, with the
 * same `webhook-id` each time. A 2xx within 15 s succeeds; 410 disables the endpoint; anything else
 * is tried again on the contract's schedule (a longer `Retry-After` on 429 or 503 honoured) until it
 * is spent. Redirects are not followed.
 */
export class DeliveryHandler implements TaskHandler {
  readonly kind = DELIVERY_TASK;
  /** Attempts at once in this process: an endpoint that never answers holds a slot 15 s, and must not hold them all. */
  readonly maxRunning: number;

  constructor(
    private readonly deps: DeliveryDeps,
    maxRunning: number,
  ) {
    this.maxRunning = maxRunning;
  }

  async run(payload: unknown, context: TaskContext): Promise<TaskOutcome> {
    const delivery = await findDelivery(this.deps.db, (payload as { deliveryId: string }).deliveryId);
    if (!delivery || delivery.status !== 'pending') return { next: 'done' };
    const attemptedAt = this.deps.now();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    let signed;
    try {
      signed = await this.deps.accounts.webhooks.sign.mutate({ webhookId: delivery.webhookId, messageId: delivery.id, timestamp, body: delivery.body });
    } catch (error) {
      // Accounts could not sign (unavailable, or the secret does not open): no attempt was made; it is
      // tried again after a pause, the reason in the delivery's log, and never given up silently.
      this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error), deliveryId: delivery.id }, 'webhook not signed; will retry');
      await noteUnsigned(this.deps.db, delivery.id, `Not sent: ${error instanceof Error ? error.message : String(error)}`);
      return { next: 'later', runAt: new Date(attemptedAt.getTime() + UNSIGNED_RETRY_MS) };
    }
    if (!signed) {
      await endWithoutAttempt(this.deps.db, delivery.id, 'The endpoint was deleted');
      return { next: 'done' };
    }
    if (signed.status === 'disabled') {
      await endWithoutAttempt(this.deps.db, delivery.id, 'The endpoint is disabled');
      return { next: 'done' };
    }
    const result = await this.attempt(signed.url, { 'webhook-id': delivery.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signed.signature }, delivery.body, context.signal);
    // Stopping cut the attempt short: it did not happen; the task runs again (same id, same body).
    if (context.signal.aborted) return { next: 'later', runAt: this.deps.now() };
    const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const gone = result.statusCode === 410;
    // The attempt happened whatever accounts says of it: a failure to note it there does not undo it.
    // A success of an endpoint that was not failing changes nothing there: not asked.
    const { disabledReason } = await (succeeded && !signed.failing
      ? Promise.resolve({ disabledReason: null })
      : this.deps.accounts.webhooks.noteOutcome.mutate({ webhookId: delivery.webhookId, outcome: succeeded ? 'succeeded' : gone ? 'gone' : 'failed' }))
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error), deliveryId: delivery.id }, 'webhook outcome not noted by accounts');
        return { disabledReason: gone ? ('gone' as const) : null };
      });
    const retryAfterMs = result.statusCode === 429 || result.statusCode === 503 ? result.retryAfterMs : null;
    const delay = succeeded || disabledReason ? null : nextAttemptDelayMs(delivery.attempts + 1, this.deps.random, retryAfterMs, this.deps.retryDelaysMs);
    const nextAttemptAt = delay === null ? null : new Date(this.deps.now().getTime() + delay);
    const lastError = succeeded ? null : disabledReason ? `${result.error ?? `Answered ${result.statusCode}`}; the endpoint is disabled (${disabledReason})` : result.error;
    const recorded = await recordAttempt(this.deps.db, delivery.id, delivery.attempts, {
      status: succeeded ? 'succeeded' : nextAttemptAt ? 'pending' : 'failed',
      nextAttemptAt,
      lastAttemptAt: attemptedAt,
      lastStatusCode: result.statusCode,
      lastError,
    });
    // Not recorded: another process attempted it meanwhile (and decides what follows), or it was retried by hand.
    if (!recorded) return { next: 'settled' };
    return nextAttemptAt ? { next: 'later', runAt: nextAttemptAt } : { next: 'done' };
  }

  /** One POST to the endpoint, to the address its URL was checked to have. */
  private async attempt(url: string, signature: Record<string, string>, body: string, stopping: AbortSignal): Promise<AttemptResult> {
    let target;
    try {
      target = await checkWebhookUrl(url, this.deps.policy, this.deps.resolve);
    } catch (error) {
      return { statusCode: null, error: `Refused: ${error instanceof Error ? error.message : String(error)}`, retryAfterMs: null };
    }
    const agent = this.deps.agents.for(target.address);
    const deadline = AbortSignal.timeout(WEBHOOK_LIMITS.timeoutMs);
    try {
      const answer = await request(target.url, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'comps-webhooks/1', ...signature },
        body,
        signal: AbortSignal.any([stopping, deadline]),
        headersTimeout: WEBHOOK_LIMITS.timeoutMs,
        bodyTimeout: WEBHOOK_LIMITS.timeoutMs,
      });
      await answer.body.dump({ limit: MAX_ANSWER_BYTES }).catch(() => undefined);
      const retryAfter = answer.headers['retry-after'];
      return { statusCode: answer.statusCode, error: answer.statusCode >= 300 ? `Answered ${answer.statusCode}` : null, retryAfterMs: retryAfterMsOf(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, this.deps.now()) };
    } catch (error) {
      const reason = deadline.aborted ? `No answer within ${WEBHOOK_LIMITS.timeoutMs / 1000} s` : error instanceof Error ? error.message : String(error);
      return { statusCode: null, error: reason, retryAfterMs: null };
    }
  }
}
