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

/**
 * The month's counter as an allowance's holder needs it: `free` is the quota less what is charged
 * and less every unit held (by requests in flight and by allowances, idle units included). A
 * holder's own idle units can still be started: what it answers as remaining is `free` plus them.
 */
const counterFigures = {
  limit: z.number().int(),
  used: z.number().int(),
  free: z.number().int(),
};

/** A block of units for one workspace (a new allowance, or more units on the one given). */
export const allowanceLeaseSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    allowanceId: z.string(),
    /** Units added by this lease. */
    granted: z.number().int(),
    /** How long the allowance is held from when accounts answered (shorter than asked at the month's end). */
    leaseMs: z.number().int(),
    ...counterFigures,
  }),
  /** Refused: the workspace's free units are not comfortably above a block; its requests reserve one unit each. */
  z.object({ ok: z.literal(false), reason: z.literal('headroom'), ...counterFigures }),
]);
export type AllowanceLease = z.infer<typeof allowanceLeaseSchema>;

/** The allowances renewed (one past its lease, or given up, is not brought back), with their workspaces' figures. */
export const allowanceRenewalSchema = z.object({
  renewed: z.array(z.object({ allowanceId: z.string(), leaseMs: z.number().int(), ...counterFigures })),
});
export type AllowanceRenewal = z.infer<typeof allowanceRenewalSchema>;

/** A success answered with a unit of an allowance: charged by its request id, from that allowance. */
export interface AllowanceCharge {
  requestId: string;
  allowanceId: string;
}
