import type { RunStopReason } from '@comps/shared/contract/tracked-search';

export interface RunPageFacts {
  /** Rows the page returned (after the exact-match filter). */
  rows: number;
  /** Of those, sales the archive lacked (stored now). */
  newSales: number;
  /** Every row of the page was stored by this very run on an earlier page (the marketplace repeats its last page past the end). */
  seenThisRun: boolean;
  page: number;
  maxPages: number;
}

/**
 * Whether a run ends after a stored page, and why: a page with no rows (`empty_page`); a page that
 * repeats what this run already stored (`repeated_page`); a page with no sale the archive lacks
 * (`caught_up`: the pages after it are older still, so the archive holds them from earlier runs);
 * the run's last page (`max_pages`).
 */
export function runStopOf(facts: RunPageFacts): RunStopReason | null {
  if (facts.rows === 0) return 'empty_page';
  if (facts.newSales === 0) return facts.seenThisRun ? 'repeated_page' : 'caught_up';
  if (facts.page >= facts.maxPages) return 'max_pages';
  return null;
}
