import type { ErrorCode } from '@comps/shared/contract/error-codes';
import type { JobRecord, JobSummary } from '@comps/shared/contract/job';
import type { JobRow } from '../db/database.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A job as the contract shows it (without its items). */
export function jobSummaryOf(row: JobRow): JobSummary {
  return {
    jobId: row.id,
    status: row.status,
    stopReason: row.stopReason,
    request: { keyword: row.keyword, marketSite: row.marketSite, maxPages: row.maxPages, count: row.count, resultType: row.resultType },
    progress: { pagesFetched: row.pagesFetched, pagesCharged: row.pagesCharged, itemsCollected: row.itemsCollected },
    error: row.errorCode ? { code: row.errorCode as ErrorCode, error: row.errorMessage ?? '' } : null,
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    expiresAt: iso(row.expiresAt),
    resultsUrl: `/v1/scrape/max/results/${row.id}`,
    downloadUrl: `/v1/scrape/max/${row.id}/download.csv`,
  };
}

/** The job with a page of its items (stored as the contract's JSON, each with its page). */
export function jobRecordOf(row: JobRow, items: string[], page: { offset: number; limit: number }): JobRecord {
  return {
    ...jobSummaryOf(row),
    items: items.map((item) => JSON.parse(item) as JobRecord['items'][number]),
    itemsPage: { offset: page.offset, limit: page.limit, total: row.itemsCollected },
  };
}
