import type { ErrorCode } from '@comps/shared/contract/error-codes';
import type { JobRecord, JobSummary } from '@comps/shared/contract/job';
import type { JobRow } from '../db/database.js';
import { jobItemOf, statsIncludeOf, type JobComps } from './job-stats.js';
import { isoOrNull } from '../db/iso-time.js';

/** A job as the contract shows it (without its items). */
export function jobSummaryOf(row: JobRow): JobSummary {
  return {
    jobId: row.id,
    status: row.status,
    stopReason: row.stopReason,
    request: { keyword: row.keyword, marketSite: row.marketSite, maxPages: row.maxPages, count: row.count, resultType: row.resultType, statsInclude: statsIncludeOf(row) },
    progress: { pagesFetched: row.pagesFetched, pagesCharged: row.pagesCharged, itemsCollected: row.itemsCollected },
    error: row.errorCode ? { code: row.errorCode as ErrorCode, error: row.errorMessage ?? '' } : null,
    createdAt: row.createdAt.toISOString(),
    startedAt: isoOrNull(row.startedAt),
    finishedAt: isoOrNull(row.finishedAt),
    expiresAt: isoOrNull(row.expiresAt),
    resultsUrl: `/v1/scrape/max/results/${row.id}`,
    downloadUrl: `/v1/scrape/max/${row.id}/download.csv`,
  };
}

/** The job with a page of its items and the statistics over all of them. */
export function jobRecordOf(row: JobRow, items: string[], page: { offset: number; limit: number }, comps: JobComps): JobRecord {
  return {
    ...jobSummaryOf(row),
    stats: comps.stats,
    items: items.map((item, index) => jobItemOf(item, comps.verdicts[page.offset + index], row)),
    itemsPage: { offset: page.offset, limit: page.limit, total: row.itemsCollected },
  };
}
