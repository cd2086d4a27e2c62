import { z } from 'zod';

/**
 * What the accounts service answers about a workspace's monthly quota. Accounts owns the ledger;
 * these schemas are the one definition its procedures validate their answers with, and what every
 * caller (api, jobs, the metering module) reads.
 */
export const quotaSnapshotSchema = z.object({
  limit: z.number().int(),
  /** Requests charged this month. */
  used: z.number().int(),
  /** Requests that can still be started: units held by requests in flight are not available. */
  remaining: z.number().int(),
});
export type QuotaSnapshot = z.infer<typeof quotaSnapshotSchema>;

/** An exhausted quota is an answer (`ok: false`), not an error. */
export const reserveOutcomeSchema = z.discriminatedUnion('ok', [
  quotaSnapshotSchema.extend({ ok: z.literal(true) }),
  quotaSnapshotSchema.extend({ ok: z.literal(false), reason: z.literal('quota_exhausted') }),
]);
export type ReserveOutcome = z.infer<typeof reserveOutcomeSchema>;

export const settleOutcomeSchema = quotaSnapshotSchema.extend({ charged: z.boolean() });
export type SettleOutcome = z.infer<typeof settleOutcomeSchema>;

export const settleBatchOutcomeSchema = z.object({
  charged: z.number().int(),
  notCharged: z.number().int(),
  /** Request ids without a reservation (never reserved, or another service's id). */
  unknown: z.array(z.string()),
});
export type SettleBatchOutcome = z.infer<typeof settleBatchOutcomeSchema>;
