import { z } from 'zod';
import { marketSiteSchema } from './market-sites.js';

export const gateStateSchema = z.enum(['open', 'closed']);
export type GateState = z.infer<typeof gateStateSchema>;

const rangeSchema = z.object({ min: z.number().int(), max: z.number().int() });
const rangeWithDefaultSchema = rangeSchema.extend({ default: z.number().int() });

export const UNSUPPORTED_CAPABILITIES = [
  'verifiedSaleDateFilter',
  'acceptedOfferPriceHydration',
  'emailedExports',
  'thirdPartyGatewayAuth',
] as const;

/** What this deployment offers beyond the specification, each listed once it works (contract, "Beyond the specification"). */
export const FEATURES = ['comps', 'sellThrough', 'trackedSearches', 'webhooks'] as const;
export const featureSchema = z.enum(FEATURES);
export type Feature = z.infer<typeof featureSchema>;

/** The features this build offers. */
export const OFFERED_FEATURES: readonly Feature[] = ['comps', 'sellThrough', 'trackedSearches', 'webhooks'];

export const capabilitiesSchema = z.object({
  version: z.literal('1.0.0'),
  dataGate: z.object({ sold: gateStateSchema, active: gateStateSchema, item: gateStateSchema }),
  sites: z.array(
    z.object({ marketSite: marketSiteSchema, enabled: z.boolean(), currency: z.string() }),
  ),
  limits: z.object({
    count: rangeWithDefaultSchema,
    page: rangeSchema,
    jobPages: rangeWithDefaultSchema,
    activeJobsPerWorkspace: z.number().int(),
    jobRetentionHours: z.number().int(),
    historyRetentionDays: z.number().int(),
    historyPageSize: rangeWithDefaultSchema,
    bulkKeywords: rangeSchema,
    trackedSearches: z.number().int(),
    webhookEndpoints: z.number().int(),
  }),
  unsupported: z.array(z.enum(UNSUPPORTED_CAPABILITIES)),
  features: z.array(featureSchema),
});
export type Capabilities = z.infer<typeof capabilitiesSchema>;
