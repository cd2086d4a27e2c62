import type { JobEnd } from '../jobs/finish-job.js';

export interface PageFacts {
  /** Rows the page returned (after the exact-match and sold filters). */
  rows: number;
  /** Of those, rows the job had not collected on an earlier page. */
  newItems: number;
  page: number;
  maxPages: number;
  cancelRequested: boolean;
}

/**
 * Whether a job ends after a stored page, and why: a page with no rows (`empty_page`); a page whose
 * rows were all seen before (`repeated_page`: the marketplace repeats its last page past the end);
 * the last page asked for (`max_pages`); a cancellation that waited for the page (`cancelled`).
 */
export function stopRuleOf(facts: PageFacts): Pick<JobEnd, 'status' | 'stopReason'> | null {
  if (facts.rows === 0) return { status: 'completed', stopReason: 'empty_page' };
  if (facts.newItems === 0) return { status: 'completed', stopReason: 'repeated_page' };
  if (facts.page >= facts.maxPages) return { status: 'completed', stopReason: 'max_pages' };
  if (facts.cancelRequested) return { status: 'cancelled', stopReason: 'cancelled' };
  return null;
}
