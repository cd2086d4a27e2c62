import { z } from 'zod';
import { moneySchema } from './money.js';

/**
 * The comps of the contract ("Comps: what each listing is, and what the listings say together"):
 * what each listing is (`comps` on an item) and what the listings say together (`stats` on a
 * collection).
 */

export const COMPS_KINDS = ['single', 'lot', 'accessory'] as const;
export const compsKindSchema = z.enum(COMPS_KINDS);
export type CompsKind = z.infer<typeof compsKindSchema>;

export const CONDITION_GROUPS = ['new', 'used', 'refurbished', 'forParts'] as const;
export const conditionGroupSchema = z.enum(CONDITION_GROUPS);
export type ConditionGroup = z.infer<typeof conditionGroupSchema>;

/** Why an item is not counted: the first that applies, in this order. */
export const EXCLUSION_REASONS = ['looseMatch', 'noPrice', 'otherCurrency', 'priceRange', 'forParts', 'accessory', 'lot', 'bestOfferAccepted', 'outlier'] as const;
export const exclusionReasonSchema = z.enum(EXCLUSION_REASONS);
export type ExclusionReason = z.infer<typeof exclusionReasonSchema>;

/** The reasons a caller may ask to count anyway (`statsInclude`). */
export const INCLUDABLE_REASONS = ['bestOfferAccepted', 'forParts', 'accessory', 'lot', 'outlier', 'looseMatch'] as const;
export const includableReasonSchema = z.enum(INCLUDABLE_REASONS);
export type IncludableReason = z.infer<typeof includableReasonSchema>;

export const itemCompsSchema = z.object({
  kind: compsKindSchema,
  condition: conditionGroupSchema.nullable(),
  units: z.number().int().min(1).nullable(),
  unitPrice: moneySchema.nullable(),
  landedUnitPrice: moneySchema.nullable(),
  counted: z.boolean(),
  excludedBecause: exclusionReasonSchema.nullable(),
});
export type ItemComps = z.infer<typeof itemCompsSchema>;

const figure = z.number();
const median = figure.nullable();

export const statsSchema = z.object({
  basis: z.enum(['sold', 'asking']),
  currency: z.string().regex(/^[A-Z]{3}$/).nullable(),
  listings: z.number().int(),
  counted: z.number().int(),
  excluded: z.object(Object.fromEntries(EXCLUSION_REASONS.map((reason) => [reason, z.number().int()])) as Record<ExclusionReason, z.ZodNumber>),
  confidence: z.enum(['high', 'medium', 'low', 'insufficient']),
  unitPrice: z.object({ min: figure, p10: figure, p25: figure, median: figure, p75: figure, p90: figure, max: figure, mean: figure, trimmedMean: figure }).nullable(),
  medianInterval: z.object({ level: z.literal(0.95), low: figure, high: figure }).nullable(),
  fences: z.object({ low: figure, high: figure }).nullable(),
  landedUnitPrice: z.object({ counted: z.number().int(), p25: figure, median: figure, p75: figure }).nullable(),
  byCondition: z.array(z.object({ condition: conditionGroupSchema, counted: z.number().int(), median })),
  byFormat: z.array(z.object({ format: z.enum(['auction', 'buyItNow']), counted: z.number().int(), median })),
  bestOfferAccepted: z.object({ count: z.number().int(), medianAskingPrice: median }).nullable(),
  lots: z.object({ count: z.number().int(), medianUnitPrice: median }).nullable(),
  soldDates: z.object({ first: z.iso.date(), last: z.iso.date() }).nullable(),
  daily: z.array(z.object({ date: z.iso.date(), counted: z.number().int(), median })),
});
export type Stats = z.infer<typeof statsSchema>;

const INCLUDABLE_LIST = `a comma-separated list of ${INCLUDABLE_REASONS.join(', ')}`;

/** The reasons among `names`, each once, in the contract's order (how `query.statsInclude` echoes them). */
export function includableReasonsIn(names: readonly string[]): IncludableReason[] {
  return INCLUDABLE_REASONS.filter((reason) => names.includes(reason));
}

/** The reasons named (blanks around a name and empty names aside); an unknown name is an issue. */
function reasonsOf(given: readonly string[], context: z.RefinementCtx): IncludableReason[] {
  const names = given.map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(INCLUDABLE_REASONS as readonly string[]).includes(name));
  if (unknown.length > 0) context.addIssue({ code: 'custom', message: `must be ${INCLUDABLE_LIST} (unknown: ${unknown.join(', ')})` });
  return includableReasonsIn(names);
}

/** `statsInclude` as a query parameter: a comma-separated list of reasons to count anyway. */
export const statsIncludeQuery = z
  .string({ error: 'must be given once, as a single value' })
  .transform((text, context) => reasonsOf(text.split(','), context))
  .meta({ param: { type: 'string', example: 'bestOfferAccepted,lot' }, description: `reasons to count anyway in \`stats\`: ${INCLUDABLE_LIST}` });

/** `statsInclude` in a JSON body: the same list, as an array of reasons or one comma-separated string. */
export const statsIncludeBody = z
  .union([z.array(z.string({ error: 'must be a reason' })), z.string()], { error: `must be ${INCLUDABLE_LIST}, or an array of them` })
  .transform((value, context) => reasonsOf(typeof value === 'string' ? value.split(',') : value, context))
  .meta({ description: `reasons to count anyway in \`stats\`: ${INCLUDABLE_LIST}, or an array of them` });
