import { z } from 'zod';
import { jobCreateBodySchema, jobItemsWindowSchema, jobListSchema, jobRecordSchema } from '../../contract/job.js';
import {
  archiveStatsSchema,
  runListSchema,
  runSchema,
  saleListSchema,
  seriesIntervalSchema,
  TRACKED_SEARCH_LIMITS,
  trackedSearchCreateObject,
  trackedSearchDeletedSchema,
  trackedSearchIdSchema,
  trackedSearchListSchema,
  trackedSearchSchema,
  trackedSearchUpdateObject,
} from '../../contract/tracked-search.js';
import { listingCollectionSchema } from '../../contract/listing.js';
import { searchParamsSchema, sellThroughParamsSchema } from '../../contract/listing-params.js';
import { sellThroughSchema } from '../../contract/sell-through.js';
import { deliveryIdSchema, deliveryListSchema, deliverySchema, WEBHOOK_LIMITS, webhookIdSchema } from '../../contract/webhook.js';
import { conditionGroupSchema } from '../../contract/comps.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../contract/idempotency.js';
import { workspaceIdSchema } from '../../ids.js';
import { mutation, query } from '../procedure-contract.js';

/** A counted item's unit price and its sold date (null for an active listing): what a job's charts draw. */
const countedSaleSchema = z.tuple([z.number(), z.iso.date().nullable()]);
export type CountedSale = z.infer<typeof countedSaleSchema>;

const ownedTrackedSearch = z.object({ workspaceId: workspaceIdSchema, trackedSearchId: trackedSearchIdSchema });
const dateRange = { from: z.iso.date().optional(), to: z.iso.date().optional() };
/** Who asks, for the history entries of the runs' pages. */
const caller = { apiKeyId: z.string().max(32).nullable(), apiKeyPrefix: z.string().max(16).nullable() };

const ownedWebhook = z.object({ workspaceId: workspaceIdSchema, webhookId: webhookIdSchema });

const ownedJob = z.object({ workspaceId: workspaceIdSchema, jobId: z.uuid() });

/**
 * The jobs service's internal procedures, as the api and the dashboard call them (services/jobs
 * implements each with these schemas). A job of another workspace is `job_not_found`, as a missing one.
 */
export const jobsContract = {
  jobs: {
    /** `created: false` is a repeat with the same Idempotency-Key and body: the earlier job, nothing new. */
    create: mutation(
      z.object({
        workspaceId: workspaceIdSchema,
        apiKeyId: z.string().max(32).nullable(),
        apiKeyPrefix: z.string().max(16).nullable(),
        body: jobCreateBodySchema,
        idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN).nullable(),
      }),
      z.object({ created: z.boolean(), job: jobRecordSchema }),
    ),
    get: query(ownedJob.extend(jobItemsWindowSchema.shape), jobRecordSchema),
    /**
     * A job's dashboard page: the job with a page of its items, and every counted item's unit price and
     * sold date in the order collected (what its charts draw, however many items it has), from one
     * snapshot and one computation of its statistics.
     */
    page: query(ownedJob.extend(jobItemsWindowSchema.shape), z.object({ job: jobRecordSchema, sales: z.array(countedSaleSchema) })),
    list: query(z.object({ workspaceId: workspaceIdSchema }), jobListSchema),
    cancel: mutation(ownedJob, jobRecordSchema),
  },
  /** A tracked search of another workspace is `tracked_search_not_found`, as a missing one. */
  trackedSearches: {
    /**
     * `limit`: the workspace plan's number of tracked searches (409 `tracked_search_limit` at it).
     * `trackedSearchId` is made by the caller, so that a call that timed out can be made again: a
     * second call with the id of a tracked search of the workspace, its keyword and site and made
     * within a minute, answers it, creating nothing.
     */
    create: mutation(
      z.object({ workspaceId: workspaceIdSchema, trackedSearchId: trackedSearchIdSchema, ...caller, limit: z.number().int().min(0), body: trackedSearchCreateObject }),
      trackedSearchSchema,
    ),
    list: query(z.object({ workspaceId: workspaceIdSchema }), trackedSearchListSchema),
    get: query(ownedTrackedSearch, trackedSearchSchema),
    update: mutation(ownedTrackedSearch.extend({ changes: trackedSearchUpdateObject }), trackedSearchSchema),
    delete: mutation(ownedTrackedSearch, trackedSearchDeletedSchema),
    /** 409 `run_in_progress` when one runs. */
    runNow: mutation(ownedTrackedSearch.extend(caller), runSchema),
    runs: query(ownedTrackedSearch, runListSchema),
    sales: query(
      ownedTrackedSearch.extend({
        ...dateRange,
        condition: conditionGroupSchema.optional(),
        counted: z.boolean().optional(),
        limit: z.number().int().min(TRACKED_SEARCH_LIMITS.sales.min).max(TRACKED_SEARCH_LIMITS.sales.max),
        cursor: z.string().max(200).optional(),
      }),
      saleListSchema,
    ),
    stats: query(ownedTrackedSearch.extend({ ...dateRange, interval: seriesIntervalSchema }), archiveStatsSchema),
  },
  /**
   * Webhook deliveries (the jobs processes deliver them). The caller has checked with accounts that
   * the workspace owns the endpoint; a delivery of another endpoint or workspace is `delivery_not_found`.
   */
  webhooks: {
    deliveries: query(
      ownedWebhook.extend({ limit: z.number().int().min(WEBHOOK_LIMITS.deliveriesPage.min).max(WEBHOOK_LIMITS.deliveriesPage.max), cursor: z.string().max(100).optional() }),
      deliveryListSchema,
    ),
    /** A `webhook.test` delivery to the endpoint, attempted now. */
    test: mutation(ownedWebhook, deliverySchema),
    /** Another attempt of a delivery, now (a failed one that fails again goes on with its schedule from its attempts so far). */
    retry: mutation(ownedWebhook.extend({ deliveryId: deliveryIdSchema }), deliverySchema),
  },
  /**
   * The dashboard's Explore page: a search (`GET /v1/scrape`) or a sell-through (`GET
   * /v1/sell-through`) for the workspace, metered exactly as the API's (its rate, concurrency and
   * quota; charged once the answer was handed back, 1 or 2 requests) and recorded in its history as
   * the dashboard's (no key). `query` is the API's query parameters, as strings, validated by the
   * API's own schemas; errors are the API's codes.
   */
  explore: {
    search: mutation(z.object({ workspaceId: workspaceIdSchema, query: searchParamsSchema }), listingCollectionSchema),
    sellThrough: mutation(z.object({ workspaceId: workspaceIdSchema, query: sellThroughParamsSchema }), sellThroughSchema),
  },
} as const;
