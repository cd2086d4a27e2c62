import { operationFingerprint } from '@comps/shared/contract/idempotency';
import { AppError } from '@comps/shared/errors/app-error';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { MarketCall } from '@comps/shared/market/market-call';
import type { RouteRequest, RouteResult } from '../http/route-definition.js';
import { abortableSleep } from '@comps/shared/runtime/abortable-sleep';
import type { IdempotencyStore } from './idempotency-store.js';

/** How long a repeat waits for the first request's answer to be confirmed before it is told to retry. */
const DELIVERY_WAIT_MS = 2000;
const DELIVERY_POLL_MS = 20;

/**
 * Answers a request with one metered call, under the caller's Idempotency-Key when one was sent: a
 * repeat of an answer that was received and charged replays it byte for byte, uncharged; a repeat
 * while the first runs, or with other parameters, is a 409. Anything else (a failure, an answer the
 * caller never received) is not kept: a retry runs again.
 */
export async function answerOnce(
  deps: { idempotency: IdempotencyStore; logger: Logger },
  request: RouteRequest<unknown, unknown, unknown>,
  operation: { method: string; path: string },
  call: MarketCall,
): Promise<RouteResult> {
  const key = request.idempotencyKey;
  if (key === null) return request.answerWithCall(call);
  const { workspaceId } = request.principal;
  const owner = request.requestId;
  const fingerprint = operationFingerprint(operation.method, operation.path, call);
  // A repeat sent as soon as the first answer arrived may find that answer still being confirmed: it waits for it.
  const waitUntil = Date.now() + DELIVERY_WAIT_MS;
  let begun = await deps.idempotency.begin(workspaceId, key, fingerprint, owner);
  while (begun.kind === 'delivering' && Date.now() < waitUntil) {
    await abortableSleep(DELIVERY_POLL_MS, request.signal);
    request.signal.throwIfAborted();
    begun = await deps.idempotency.begin(workspaceId, key, fingerprint, owner);
  }
  switch (begun.kind) {
    case 'replay':
      return { kind: 'json', status: begun.status, body: begun.body, headers: { 'Cache-Control': 'no-store', 'Idempotent-Replayed': 'true' }, resultCount: begun.resultCount };
    case 'in_progress':
    case 'delivering':
      throw new AppError('idempotency_in_progress', 'The first request with this Idempotency-Key is still running', { retryAfter: 1 });
    case 'reused':
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with other parameters');
  }
  const abandon = () => deps.idempotency.abandon(workspaceId, key, owner).catch(() => undefined);
  let result: Awaited<ReturnType<typeof request.answerWithCall>>;
  try {
    // The answer is stored before it is written (not replayed yet), so that a repeat arriving right
    // after it was received finds it; it is replayed only once received whole and charged.
    result = await request.answerWithCall(call, { beforeSend: ({ body, resultCount }) => deps.idempotency.delivering(workspaceId, key, owner, 200, body, resultCount) });
  } catch (error) {
    await abandon();
    throw error;
  }
  if (result.kind !== 'sent' || result.body === null || !result.charged) {
    await abandon();
    return result;
  }
  await deps.idempotency
    .complete(workspaceId, key, owner)
    .catch((error: unknown) => deps.logger.warn({ err: String(error) }, 'idempotency record failed; a repeat will run again'));
  return result;
}
