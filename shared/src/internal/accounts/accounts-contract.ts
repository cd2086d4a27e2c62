import { z } from 'zod';
import { LIMITS } from '../../contract/limits.js';
import { historyEntrySchema } from '../../contract/request-history.js';
import {
  deliveryIdSchema,
  disabledReasonSchema,
  rotatedSecretSchema,
  WEBHOOK_LIMITS,
  webhookCreateSchema,
  webhookDeletedSchema,
  webhookEventTypeSchema,
  webhookIdSchema,
  webhookListSchema,
  webhookSchema,
  webhookStatusSchema,
  webhookUpdateObject,
  webhookWithSecretSchema,
} from '../../contract/webhook.js';
import { effectivePlanSchema, planIdSchema, usageSchema } from '../../contract/usage.js';
import { allowanceIdSchema, requestIdSchema, workspaceIdSchema } from '../../ids.js';
import { mutation, noInput, query } from '../procedure-contract.js';
import { historyRecordSchema } from './history-record.js';
import { FINGERPRINT_HEX_LENGTH } from './key-announcements.js';
import { principalSchema } from './principal.js';
import { allowanceLeaseSchema, allowanceRenewalSchema, reserveOutcomeSchema, settleBatchOutcomeSchema, settleOutcomeSchema } from './quota.js';

/** More than this many unsettled charges means settling has stalled for long; a usage read sends the first ones. */
export const MAX_ANSWERED_REQUEST_IDS = 100_000;

/** The largest block an allowance lease asks for, and the longest lease (a process that dies holds its units this long at most). */
export const MAX_ALLOWANCE_UNITS = 10_000;
export const MAX_ALLOWANCE_LEASE_MS = 600_000;
/** Allowances one renewal may name (a process in use of more renews them in slices). */
export const MAX_RENEWED_ALLOWANCES = 500;

/** Charges one settlement batch carries at most (reservations and allowance charges together). */
const MAX_SETTLE_BATCH = 500;

/** Fingerprints one page of `apiKeys.fingerprints` holds at most. */
export const MAX_FINGERPRINTS_PAGE = 10_000;

/** The key itself is in this answer only: it is stored as a hash. */
export const issuedApiKeySchema = z.object({ apiKeyId: z.string(), key: z.string(), prefix: z.string(), lastFour: z.string() });

export const passwordLinkSchema = z.object({
  userId: z.string(),
  email: z.string(),
  workspaceId: z.string(),
  /** For the set-password link only; stored as a hash, in this answer once. */
  token: z.string(),
  expiresAt: z.iso.datetime(),
});

export const linkHoursSchema = z.number().int().min(1).max(720).default(72);

const email = z.string().min(3).max(254);

const ownedWebhook = z.object({ workspaceId: workspaceIdSchema, webhookId: webhookIdSchema });

/**
 * The accounts service's internal procedures, as the api, jobs and the admin command call them
 * (services/accounts implements each with these schemas).
 */
export const accountsContract = {
  apiKeys: {
    /** Callers send the SHA-256 of the key, so the key itself never crosses a service boundary. Null: unknown or revoked. */
    authenticate: query(z.object({ keyHash: z.string().regex(/^[0-9a-f]{64}$/) }), principalSchema.nullable()),
    create: mutation(z.object({ workspaceId: workspaceIdSchema, name: z.string().min(1).max(100).nullable().default(null) }), issuedApiKeySchema),
    revoke: mutation(z.object({ keyOrId: z.string().min(1).max(200) }), z.object({ apiKeyId: z.string(), workspaceId: z.string() })),
    /** Every active key's fingerprint (key-announcements.ts), a page at a time in the order of their ids: an api's full load. */
    fingerprints: query(
      z.object({ afterId: z.string().max(40).nullable(), limit: z.number().int().min(1).max(MAX_FINGERPRINTS_PAGE) }),
      z.object({
        fingerprints: z.array(z.string().length(FINGERPRINT_HEX_LENGTH)),
        lastId: z.string().nullable(),
        /** With the first page (no `afterId`): how many keys are active, so the caller sizes its table once. */
        total: z.number().int().nullable(),
        /** With the first page: the database's time before it was read, from which `changes` catches up. */
        asOf: z.iso.datetime().nullable(),
      }),
    ),
    /**
     * Keys made (and still active) and keys revoked at or after `since`, and the database's time of
     * the answer: what an api reads every few seconds, so that it learns of every change even when
     * an announcement did not reach it.
     */
    changes: query(
      z.object({ since: z.iso.datetime() }),
      z.object({ created: z.array(z.string().length(FINGERPRINT_HEX_LENGTH)), revoked: z.array(z.string().length(FINGERPRINT_HEX_LENGTH)), asOf: z.iso.datetime() }),
    ),
  },
  workspaces: {
    create: mutation(z.object({ name: z.string().trim().min(1).max(200), planId: planIdSchema.default('free') }), z.object({ workspaceId: z.string(), apiKey: issuedApiKeySchema })),
    /** The limits in force for a workspace (its plan with the operator's overrides); unknown: `invalid_request`. */
    get: query(z.object({ workspaceId: workspaceIdSchema }), z.object({ workspaceId: z.string(), plan: effectivePlanSchema })),
    /** A number sets an override, null clears it (back to the plan's value), absent leaves it. */
    setLimits: mutation(
      z.object({
        workspaceId: workspaceIdSchema,
        planId: planIdSchema.optional(),
        monthlyQuota: z.number().int().min(0).nullable().optional(),
        rateLimit: z.number().int().min(1).nullable().optional(),
        concurrency: z.number().int().min(1).nullable().optional(),
        trackedSearches: z.number().int().min(0).nullable().optional(),
        webhookEndpoints: z.number().int().min(0).nullable().optional(),
      }),
      effectivePlanSchema,
    ),
  },
  users: {
    /** An operator's `user create`: a user of an existing workspace, who sets a password through the link. */
    create: mutation(z.object({ email, workspaceId: workspaceIdSchema, linkHours: linkHoursSchema }), passwordLinkSchema),
    /** An operator's `user password-link`: a new link for an existing user (forgotten password, expired link). */
    issuePasswordLink: mutation(z.object({ email, linkHours: linkHoursSchema }), passwordLinkSchema),
  },
  quota: {
    /** An exhausted quota is an answer (`ok: false`), not an error. */
    reserve: mutation(z.object({ workspaceId: workspaceIdSchema, requestId: requestIdSchema }), reserveOutcomeSchema),
    settle: mutation(z.object({ requestId: requestIdSchema }), settleOutcomeSchema),
    settleBatch: mutation(
      z
        .object({
          /** Requests that reserved their own unit. */
          requestIds: z.array(requestIdSchema).max(MAX_SETTLE_BATCH).default([]),
          /** Successes answered with a unit of an allowance: each charged once by its request id, from that allowance. */
          allowanceCharges: z.array(z.object({ requestId: requestIdSchema, allowanceId: allowanceIdSchema })).max(MAX_SETTLE_BATCH).default([]),
          /** The charges' history entries, recorded in the same transaction. */
          history: z.array(historyRecordSchema).max(MAX_SETTLE_BATCH).default([]),
        })
        .refine((input) => input.requestIds.length + input.allowanceCharges.length >= 1 && input.requestIds.length + input.allowanceCharges.length <= MAX_SETTLE_BATCH, {
          error: `between 1 and ${MAX_SETTLE_BATCH} charges`,
          path: ['requestIds'],
        }),
      settleBatchOutcomeSchema,
    ),
    release: mutation(z.object({ requestId: requestIdSchema }), z.object({ released: z.boolean() })),
    /**
     * A block of `units` held for the workspace's metering under one allowance id, for `leaseMs`:
     * more units on `allowanceId` while it is held in this month, else a new allowance. Refused
     * (`ok: false`) unless the workspace's free units stay comfortably above a block afterwards.
     */
    leaseAllowance: mutation(
      z.object({
        workspaceId: workspaceIdSchema,
        allowanceId: allowanceIdSchema.nullable().default(null),
        units: z.number().int().min(1).max(MAX_ALLOWANCE_UNITS),
        leaseMs: z.number().int().min(1000).max(MAX_ALLOWANCE_LEASE_MS),
      }),
      allowanceLeaseSchema,
    ),
    /** Extends the leases of allowances in use, from now (never past their month); answers their workspaces' figures. */
    renewAllowances: mutation(
      z.object({ allowanceIds: z.array(allowanceIdSchema).min(1).max(MAX_RENEWED_ALLOWANCES), leaseMs: z.number().int().min(1000).max(MAX_ALLOWANCE_LEASE_MS) }),
      allowanceRenewalSchema,
    ),
    /** Gives back units of an allowance nobody took (at most what it still holds); answers how many were freed. */
    returnAllowance: mutation(
      z.object({ allowanceId: allowanceIdSchema, units: z.number().int().min(0).max(MAX_ALLOWANCE_UNITS * 100) }),
      z.object({ returned: z.number().int() }),
    ),
  },
  usage: {
    get: query(
      z.object({
        workspaceId: workspaceIdSchema,
        /** Successes already answered whose charge may not be settled yet (the caller's settlement outbox knows them). */
        answeredRequestIds: z.array(requestIdSchema).max(MAX_ANSWERED_REQUEST_IDS).default([]),
        /** Units of the workspace's allowances that nobody has taken yet (the caller's Redis knows them): they can still be started. */
        allowanceUnits: z.array(z.object({ allowanceId: allowanceIdSchema, units: z.number().int().min(0) })).max(100).default([]),
      }),
      usageSchema,
    ),
  },
  history: {
    record: mutation(z.object({ entries: z.array(historyRecordSchema).min(1).max(500) }), z.object({ recorded: z.number().int() })),
    list: query(
      z.object({
        workspaceId: workspaceIdSchema,
        limit: z.number().int().min(LIMITS.historyPageSize.min).max(LIMITS.historyPageSize.max),
        beforeRequestId: requestIdSchema.optional(),
        from: z.iso.date().optional(),
        to: z.iso.date().optional(),
      }),
      z.object({ entries: z.array(historyEntrySchema), continueBefore: z.string().nullable() }),
    ),
  },
  /**
   * Webhook endpoints and their secrets (accounts owns them; secrets are stored encrypted and leave
   * this service only as signatures, and in the answer of the registration that made them, made
   * again with its id within a minute included). An endpoint of another workspace is `webhook_not_found`.
   */
  webhooks: {
    /**
     * 409 `webhook_limit` at the plan's number; 400 `invalid_webhook_url` for a URL the address rules
     * refuse. `webhookId` is made by the caller, so that a call that timed out can be made again: a
     * second call with the id of an endpoint of the workspace, its URL and made within a minute, answers
     * it with its secret, creating nothing.
     */
    create: mutation(z.object({ workspaceId: workspaceIdSchema, webhookId: webhookIdSchema, body: webhookCreateSchema }), webhookWithSecretSchema),
    list: query(z.object({ workspaceId: workspaceIdSchema }), webhookListSchema),
    get: query(ownedWebhook, webhookSchema),
    update: mutation(ownedWebhook.extend({ changes: webhookUpdateObject }), webhookSchema),
    delete: mutation(ownedWebhook, webhookDeletedSchema),
    /** A new secret; the old one keeps signing for 24 hours. */
    rotateSecret: mutation(ownedWebhook, rotatedSecretSchema),
    /** For the jobs service's fan-out: the enabled endpoints of a workspace subscribed to an event type. */
    subscribers: query(z.object({ workspaceId: workspaceIdSchema, eventType: webhookEventTypeSchema }), z.object({ webhookIds: z.array(webhookIdSchema) })),
    /**
     * For a delivery attempt: the endpoint's URL and status, and the `webhook-signature` value of
     * this message (one signature, or two during a rotation); null when the endpoint is gone.
     */
    sign: mutation(
      z.object({ webhookId: webhookIdSchema, messageId: deliveryIdSchema, timestamp: z.number().int().min(0), body: z.string().max(WEBHOOK_LIMITS.payloadMaxBytes) }),
      // `failing`: the endpoint's last attempts failed (a success must be noted to clear it; otherwise it need not be).
      z.object({ workspaceId: workspaceIdSchema, url: z.string(), status: webhookStatusSchema, signature: z.string(), failing: z.boolean() }).nullable(),
    ),
    /**
     * An attempt's outcome: a success clears the endpoint's failing streak; `gone` (410) disables it;
     * a failure disables it once its deliveries have all failed for 5 days. Says whether it is disabled now.
     */
    noteOutcome: mutation(
      z.object({ webhookId: webhookIdSchema, outcome: z.enum(['succeeded', 'failed', 'gone']) }),
      z.object({ disabledReason: disabledReasonSchema.nullable() }),
    ),
  },
  /** Upkeep that runs once across processes, as periodic tasks of the jobs service's task runner. */
  maintenance: {
    /** Reservations whose request died (past their lease) give their unit back, and allowances past theirs their unused units: how many units were freed. */
    releaseExpiredReservations: mutation(noInput, z.object({ released: z.number().int() })),
    /** History past 30 days, expired sessions and set-password links, and settled reservations past their month. */
    purge: mutation(noInput, z.object({ deletedHistory: z.number().int(), deletedSessions: z.number().int(), deletedReservations: z.number().int() })),
  },
  health: {
    /** Readiness, as callers see it: the service answers through its client and its database answers it. */
    ping: query(noInput, z.object({ ok: z.literal(true) })),
  },
} as const;
