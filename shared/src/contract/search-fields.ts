import { z } from 'zod';
import { DEFAULT_MARKET_SITE, MARKET_SITES } from './market-sites.js';

/** The longest search text the service accepts (the marketplace's own limit is lower still). */
export const SEARCH_TEXT_MAX = 350;

/**
 * Search text, wherever a request carries it (a query parameter, a job's body, a bulk search's
 * keywords): trimmed, 1 to 350 characters. `notText` says what was wrong when it is not one string.
 */
export function searchTextField(notText: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required: the search text' : notText) })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(SEARCH_TEXT_MAX, { error: `must be at most ${SEARCH_TEXT_MAX} characters` });
}

/** An integer field of a JSON body, within bounds. */
export function integerIn(min: number, max: number) {
  return z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` });
}

/** One of a list of values, in a JSON body. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

/** The regional site in a JSON body (market.com when left out). */
export const bodyMarketSite = oneOf(MARKET_SITES).default(DEFAULT_MARKET_SITE).meta({ description: 'regional site; availability is listed in capabilities' });
