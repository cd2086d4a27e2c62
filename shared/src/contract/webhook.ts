import { z } from 'zod';

/** Limits and timings of webhooks (contract, "Webhooks"). */
export const WEBHOOK_LIMITS = {
  urlMaxLength: 2000,
  descriptionMaxLength: 200,
  /** A delivery's body stays under this many bytes. */
  payloadMaxBytes: 20 * 1024,
  /** A 2xx answer within this long succeeds. */
  timeoutMs: 15_000,
  /** Waits before the attempts after the first (7 retries, about 28 hours), each with up to 10 % jitter. */
  retryDelaysMs: [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000],
  jitter: 0.1,
  /** An endpoint whose deliveries all failed for this long is disabled (`failing`). */
  failingDisableMs: 5 * 86_400_000,
  /** The old secret still signs for this long after a rotation. */
  rotationOverlapMs: 24 * 3_600_000,
  /** Deliveries are listed (and kept) for 30 days. */
  deliveryRetentionDays: 30,
  deliveriesPage: { min: 1, max: 100, default: 50 },
} as const;

export const WEBHOOK_ID_PATTERN = /^wh_[0-9A-HJKMNP-TV-Z]{26}$/;
export const DELIVERY_ID_PATTERN = /^msg_[0-9A-HJKMNP-TV-Z]{26}$/;
export const webhookIdSchema = z.string().regex(WEBHOOK_ID_PATTERN, { error: 'must be a webhook id (wh_…)' });
export const deliveryIdSchema = z.string().regex(DELIVERY_ID_PATTERN, { error: 'must be a delivery id (msg_…)' });

/** The events an endpoint can subscribe to; `webhook.test` is always sent to the endpoint it tests. */
export const WEBHOOK_EVENT_TYPES = ['job.completed', 'job.failed', 'job.cancelled', 'trackedSearch.run.completed', 'trackedSearch.run.failed'] as const;
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;
export const TEST_EVENT_TYPE = 'webhook.test';
export const deliveryEventTypeSchema = z.enum([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE]);
export type DeliveryEventType = z.infer<typeof deliveryEventTypeSchema>;

export const webhookStatusSchema = z.enum(['enabled', 'disabled']);
export type WebhookStatus = z.infer<typeof webhookStatusSchema>;
export const disabledReasonSchema = z.enum(['gone', 'failing', 'manual']);
export type DisabledReason = z.infer<typeof disabledReasonSchema>;

export const webhookSchema = z.object({
  webhookId: webhookIdSchema,
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  description: z.string().nullable(),
  status: webhookStatusSchema,
  disabledReason: disabledReasonSchema.nullable(),
  createdAt: z.iso.datetime(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** `whsec_` and base64 of 32 random bytes: shown once, when made or rotated. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{43}=$/;
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string().regex(WEBHOOK_SECRET_PATTERN) });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });
export const webhookDeletedSchema = z.object({ webhookId: webhookIdSchema, deleted: z.literal(true) });
/** The answer of a rotation: the new secret, and until when the old one still signs. */
export const rotatedSecretSchema = z.object({ webhookId: webhookIdSchema, secret: z.string().regex(WEBHOOK_SECRET_PATTERN), previousSecretExpiresAt: z.iso.datetime() });

const urlField = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(WEBHOOK_LIMITS.urlMaxLength, { error: `must be at most ${WEBHOOK_LIMITS.urlMaxLength} characters` })
  .meta({ description: 'the https URL deliveries are POSTed to' });
const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }), { error: 'must be an array of event types' })
  .min(1, { error: 'must name at least one event' })
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)))
  .meta({ description: `the events to deliver: ${WEBHOOK_EVENT_TYPES.join(', ')}` });
const descriptionField = z
  .string({ error: 'must be a string' })
  .trim()
  .max(WEBHOOK_LIMITS.descriptionMaxLength, { error: `must be at most ${WEBHOOK_LIMITS.descriptionMaxLength} characters` })
  .meta({ description: 'a note for you' });

/** Body of `POST /v1/webhooks`. */
export const webhookCreateSchema = z.object({ url: urlField, events: eventsField, description: descriptionField.optional() }, { error: 'must be a JSON object' });
export type WebhookCreate = z.output<typeof webhookCreateSchema>;

/** Body of `PATCH /v1/webhooks/{webhookId}`: any of these. Enabling clears `disabledReason`. */
export const webhookUpdateObject = z.object(
  {
    url: urlField.optional(),
    events: eventsField.optional(),
    description: descriptionField.nullable().optional(),
    status: z.enum(['enabled', 'disabled'], { error: 'must be enabled or disabled' }).optional().meta({ description: '`disabled` stops deliveries; `enabled` resumes them' }),
  },
  { error: 'must be a JSON object' },
);
export const webhookUpdateSchema = webhookUpdateObject.refine((body) => Object.values(body).some((value) => value !== undefined), {
  error: 'must change at least one of url, events, description, status',
});
export type WebhookUpdate = z.output<typeof webhookUpdateSchema>;

export const deliveryStatusSchema = z.enum(['pending', 'succeeded', 'failed']);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

export const deliverySchema = z.object({
  deliveryId: deliveryIdSchema,
  eventType: deliveryEventTypeSchema,
  createdAt: z.iso.datetime(),
  status: deliveryStatusSchema,
  attempts: z.number().int(),
  lastAttemptAt: z.iso.datetime().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;
export const deliveryListSchema = z.object({ deliveries: z.array(deliverySchema), nextCursor: z.string().nullable() });
export type DeliveryList = z.infer<typeof deliveryListSchema>;

/** What a delivery POSTs. */
export const webhookPayloadSchema = z.object({ type: deliveryEventTypeSchema, timestamp: z.iso.datetime(), data: z.record(z.string(), z.unknown()) });
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
