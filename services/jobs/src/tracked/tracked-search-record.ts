import type { IncludableReason } from '@comps/shared/contract/comps';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import type { ListingQuery } from '@comps/shared/contract/listing';
import { trackedSearchLinks, trackedSearchPageQuery, type Run, type TrackedQuery, type TrackedSearch } from '@comps/shared/contract/tracked-search';
import type { RunRow, TrackedSearchRow } from '../db/database.js';
import { isoOrNull } from '../db/iso-time.js';

/** The part of the search kept as JSON in `tracked_searches.query` (the keyword and site have columns). */
export type StoredQuery = Omit<TrackedQuery, 'keyword' | 'marketSite'>;

export function storedQueryOf(row: Pick<TrackedSearchRow, 'query'>): StoredQuery {
  return JSON.parse(row.query) as StoredQuery;
}

export function trackedQueryOf(row: TrackedSearchRow): TrackedQuery {
  return { keyword: row.keyword, marketSite: row.marketSite, ...storedQueryOf(row) };
}

/** The reasons the tracked search's statistics count anyway. */
export function statsIncludeOfTracked(row: TrackedSearchRow): IncludableReason[] {
  return storedQueryOf(row).statsInclude;
}

/** The sold search a run fetches, page by page. */
export function runPageQuery(row: TrackedSearchRow, page: number): ListingQuery {
  return trackedSearchPageQuery(trackedQueryOf(row), page);
}

export function runOf(row: RunRow): Run {
  return {
    runId: row.id,
    trigger: row.runTrigger,
    status: row.status,
    stopReason: row.stopReason,
    pagesFetched: row.pagesFetched,
    pagesCharged: row.pagesCharged,
    newSales: row.newSales,
    startedAt: row.startedAt.toISOString(),
    finishedAt: isoOrNull(row.finishedAt),
    error: row.errorCode ? { code: row.errorCode as ErrorCode, error: row.errorMessage ?? '' } : null,
  };
}

export function trackedSearchOf(row: TrackedSearchRow, lastRun: RunRow | undefined): TrackedSearch {
  return {
    trackedSearchId: row.id,
    name: row.name,
    status: row.status,
    pausedReason: row.pausedReason,
    query: trackedQueryOf(row),
    schedule: row.schedule,
    maxPagesPerRun: row.maxPagesPerRun,
    createdAt: row.createdAt.toISOString(),
    nextRunAt: isoOrNull(row.nextRunAt),
    lastRun: lastRun ? runOf(lastRun) : null,
    archive: { sales: row.archiveSales, firstSoldDate: row.firstSoldDate, lastSoldDate: row.lastSoldDate },
    links: trackedSearchLinks(row.id),
  };
}
