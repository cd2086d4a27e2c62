import type { Readable } from 'node:stream';
import type { JobSummary } from '@comps/shared/contract/job';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';

/**
 * What the dashboard needs of the jobs service (over its internal port, never through the public
 * API): a workspace's jobs, and a job's CSV for that workspace. Another workspace's job is not found,
 * as on the API.
 */
export interface JobsGateway {
  /** The jobs service's typed procedures (tracked searches, webhook deliveries, jobs), each scoped by the workspace given. */
  client: JobsClient;
  /** The Explore page's metered searches: the same procedures, with time for a marketplace call (and the waits around it). */
  explore: JobsClient['explore'];
  listJobs(workspaceId: string, signal: AbortSignal): Promise<JobSummary[]>;
  /** The CSV as a stream, or null when the workspace has no such job (or it is past retention). */
  openCsv(workspaceId: string, jobId: string, signal: AbortSignal): Promise<Readable | null>;
  /** A tracked search's archive as CSV, or null when the workspace has no such tracked search. */
  openSalesCsv(workspaceId: string, trackedSearchId: string, signal: AbortSignal): Promise<Readable | null>;
  close(): Promise<void>;
}
