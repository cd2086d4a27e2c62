import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import { AppError } from '@comps/shared/errors/app-error';
import { openJobCsv, openSalesCsv } from '@comps/shared/internal/jobs/job-csv-download';
import { createJobsClient } from '@comps/shared/internal/jobs/jobs-client';
import type { JobsGateway } from './jobs-gateway.js';

export interface JobsServiceOptions {
  /** The jobs service's internal address (JOBS_URL). */
  url: string;
  internalToken: string;
  timeoutMs: number;
  /** How long an Explore search may take (INTERNAL_CALL_TIMEOUT_MS is for calls that never wait on the marketplace). */
  exploreTimeoutMs: number;
}

/** The jobs service over its internal port: the list through its typed client, the CSVs streamed over plain HTTP (as the api downloads it). */
export function jobsServiceGateway(options: JobsServiceOptions): JobsGateway {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  const client = createJobsClient({ ...options, dispatcher });
  const { explore } = createJobsClient({ ...options, timeoutMs: options.exploreTimeoutMs, dispatcher });
  return {
    client,
    explore,
    async listJobs(workspaceId, signal) {
      return (await client.jobs.list.query({ workspaceId }, { signal })).jobs;
    },
    async openCsv(workspaceId, jobId, signal): Promise<Readable | null> {
      try {
        return await openJobCsv({ ...options, dispatcher }, { workspaceId, jobId }, signal);
      } catch (error) {
        if (error instanceof AppError && (error.code === 'job_not_found' || error.code === 'invalid_request')) return null;
        throw error;
      }
    },
    async openSalesCsv(workspaceId, trackedSearchId, signal): Promise<Readable | null> {
      try {
        return await openSalesCsv({ ...options, dispatcher }, { workspaceId, trackedSearchId }, signal);
      } catch (error) {
        if (error instanceof AppError && (error.code === 'tracked_search_not_found' || error.code === 'invalid_request')) return null;
        throw error;
      }
    },
    close: () => dispatcher.close(),
  };
}
