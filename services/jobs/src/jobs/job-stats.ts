import type { IncludableReason, ItemComps, Stats } from '@comps/shared/contract/comps';
import { includableReasonsIn } from '@comps/shared/contract/comps';
import type { JobItem } from '@comps/shared/contract/job';
import type { ListingRow } from '@comps/shared/contract/listing';
import { SITE_CURRENCY } from '@comps/shared/contract/market-sites';
import { classificationOf, statsItemOf } from '@comps/shared/comps/listing-comps';
import { computeStats, type ItemVerdict, type StatsItem } from '@comps/shared/comps/statistics';
import type { CountedSale } from '@comps/shared/internal/jobs/jobs-contract';
import type { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import type { JobRow, JobsExecutor } from '../db/database.js';
import { listItemsOfPages, listPageStatsItems } from './job-repository.js';
import { decodeStatsItems } from './stats-item-column.js';

/** The counted items' unit prices and sold dates, 12 bytes a sale (a cached job of 20,000 holds 240 KB of them, not megabytes of pairs). */
interface CountedSales {
  prices: Float64Array;
  /** Days since 1970-01-01 (UTC), NO_DATE for a sale without one. */
  days: Int32Array;
}
const NO_DATE = -2_147_483_648;
const DAY_MS = 86_400_000;

/**
 * A job's comps: the statistics over every item it collected, each item's verdict among them, and
 * the counted items' prices and dates, in the order collected (computed and cached together: a
 * job's page asks for the statistics and the sales of the same items, and each read of the items'
 * compact arrays costs tens of milliseconds for a job of 20,000).
 */
export interface JobComps {
  stats: Stats;
  verdicts: readonly ItemVerdict[];
  countedSales: CountedSales;
}

/** Computed comps kept a short while per job and item count: a completed job's are computed once, a running job's once per page. */
export type JobCompsCache = ExpiringMap<JobComps>;

/** The reasons a job counts anyway, from its stored list (the contract's order). */
export function statsIncludeOf(row: Pick<JobRow, 'statsInclude'>): IncludableReason[] {
  return includableReasonsIn(row.statsInclude.split(','));
}

/** What a listing of the job is (for items stored before their comps were). */
function classificationOfStored(row: JobRow, listing: ListingRow) {
  return classificationOf(listing, { keyword: row.keyword, site: row.marketSite });
}

/**
 * What the statistics read of every item of the job, in the order collected: each page's stored
 * array, and for pages stored before those arrays existed, their items read and classified.
 */
async function jobStatsItems(db: JobsExecutor, row: JobRow): Promise<StatsItem[]> {
  const pages = await listPageStatsItems(db, row.id);
  const unsummarized = new Map<number, string[]>();
  for (const stored of await listItemsOfPages(db, row.id, pages.filter((page) => page.statsItems === null).map((page) => page.page))) {
    const items = unsummarized.get(stored.page);
    if (items) items.push(stored.item);
    else unsummarized.set(stored.page, [stored.item]);
  }
  const items: StatsItem[] = [];
  for (const page of pages) {
    if (page.statsItems !== null) {
      for (const item of decodeStatsItems(page.statsItems)) items.push(item);
      continue;
    }
    for (const stored of unsummarized.get(page.page) ?? []) {
      const listing = JSON.parse(stored) as ListingRow;
      items.push(statsItemOf(listing, classificationOfStored(row, listing)));
    }
  }
  return items;
}

/** Every counted item's unit price and sold date, in the order collected, from the job's comps: what a chart of the job draws. */
export function jobCountedSales(comps: JobComps): CountedSale[] {
  const { prices, days } = comps.countedSales;
  return Array.from(prices, (price, index) => [price, days[index] === NO_DATE ? null : new Date(days[index]! * DAY_MS).toISOString().slice(0, 10)]);
}

/** The statistics of these items of the job, each one's verdict, and the counted ones' prices and dates. */
function compsOf(row: JobRow, items: StatsItem[]): JobComps {
  const { stats, verdicts } = computeStats(items, { basis: 'sold', siteCurrency: SITE_CURRENCY[row.marketSite], include: new Set(statsIncludeOf(row)) });
  const counted = items.filter((item, index) => verdicts[index]?.counted && item.unitPrice);
  const prices = Float64Array.from(counted, (item) => item.unitPrice!.value);
  // Sold dates are calendar dates (YYYY-MM-DD): whole days in UTC.
  const days = Int32Array.from(counted, (item) => {
    const day = item.soldDate === null ? Number.NaN : Date.parse(item.soldDate) / DAY_MS;
    return Number.isInteger(day) ? day : NO_DATE;
  });
  return { stats, verdicts, countedSales: { prices, days } };
}

/** The comps of a job that collected nothing yet. */
export function emptyJobComps(row: JobRow): JobComps {
  return compsOf({ ...row, statsInclude: '' }, []);
}

/**
 * The job's statistics over every item it collected so far, each item once (they change while it
 * runs), and each item's verdict among all of them: each page's compact array (pages stored before
 * those existed: their items). `db` must be the snapshot that `row` and the items are read in, so
 * that the verdicts line up with them; what is cached is keyed by the row's item count, and only
 * when the two agree.
 */
export async function jobComps(db: JobsExecutor, row: JobRow, cache: JobCompsCache, now: number): Promise<JobComps> {
  const key = `${row.id}:${row.itemsCollected}:${row.statsInclude}`;
  const cached = cache.get(key, now);
  if (cached) return cached.value;
  const comps = compsOf(row, await jobStatsItems(db, row));
  if (comps.verdicts.length === row.itemsCollected) cache.set(key, comps, now);
  return comps;
}

/**
 * A stored item (the contract's JSON, with its page) with its comps among all the job's items: its
 * verdict there replaces its page's. Without one (an item collected after the statistics were read,
 * as a CSV that streams while the job runs meets) it keeps its page's.
 */
export function jobItemOf(stored: string, verdict: ItemVerdict | undefined, row: JobRow): JobItem {
  const item = JSON.parse(stored) as Partial<JobItem> & ListingRow & { page: number };
  const own: ItemComps = item.comps ?? { ...classificationOfStored(row, item), counted: false, excludedBecause: null };
  return { ...item, comps: verdict ? { ...own, ...verdict } : own };
}
