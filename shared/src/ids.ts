import { randomFillSync } from 'node:crypto';
import { z } from 'zod';
import { decodeTime, monotonicFactory, ulid as ulidWith } from 'ulid';

/**
 * Uniform random values in [0, 1) from the system's CSPRNG, drawn 1,024 at a time: ulid's own source
 * asks the crypto module once for each of the 16 random characters of every id, which was a few
 * percent of a busy service's CPU.
 */
function pooledRandom(): () => number {
  const pool = new Uint32Array(1024);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++]! / 0x1_0000_0000;
  };
}

const random = pooledRandom();
const nextUlid = monotonicFactory(random);
const ulid = (seedTime?: number) => ulidWith(seedTime, random);

/** `req_` + ULID: unique, and sorts by time. */
export function newRequestId(): string {
  return `req_${nextUlid()}`;
}

export const REQUEST_ID_PATTERN = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

export function requestIdTime(requestId: string): Date {
  return new Date(decodeTime(requestId.slice(4)));
}

/**
 * The smallest request id that could have been made at `time`; request ids at or after `time`
 * compare greater or equal, so a time range becomes an id range.
 */
export function requestIdFloor(time: Date): string {
  return `req_${ulid(time.getTime()).slice(0, 10)}0000000000000000`;
}

export function newWorkspaceId(): string {
  return `ws_${ulid()}`;
}

export function newApiKeyId(): string {
  return `key_${ulid()}`;
}

/** `alw_` + ULID: a quota allowance (units leased in a block, see the accounts ledger). */
export function newAllowanceId(): string {
  return `alw_${ulid()}`;
}

/** `ts_` + ULID: a tracked search. */
export function newTrackedSearchId(): string {
  return `ts_${ulid()}`;
}

/** `run_` + ULID: a tracked search's run (sorts by the time it started). */
export function newRunId(): string {
  return `run_${nextUlid()}`;
}

/** `wh_` + ULID: a webhook endpoint. */
export function newWebhookId(): string {
  return `wh_${ulid()}`;
}

/** `msg_` + ULID: a webhook delivery (its `webhook-id`, the same on every attempt); sorts by time. */
export function newDeliveryId(): string {
  return `msg_${nextUlid()}`;
}

/** A task's id (a ULID: tasks made at once still sort by time). */
export function newTaskId(): string {
  return nextUlid();
}

/** An event's id: a ULID, so events read in order of their ids are read in order of time. */
export function newEventId(): string {
  return nextUlid();
}

/** A request id as if made at `time`; for imports and tests that need history in the past. */
export function requestIdAt(time: Date): string {
  return `req_${ulid(time.getTime())}`;
}

/** A workspace id as services pass it to each other (`ws_` + ULID; 32 characters at most). */
export const workspaceIdSchema = z.string().min(1).max(32);

export const requestIdSchema = z.string().regex(REQUEST_ID_PATTERN);

export const allowanceIdSchema = z.string().regex(/^alw_[0-9A-HJKMNP-TV-Z]{26}$/);
