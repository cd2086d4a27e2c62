import type { Readable } from 'node:stream';
import type { AnyRouter } from '@trpc/server';
import { Agent } from 'undici';
import { jobListSchema } from '@comps/shared/contract/job';
import { AppError } from '@comps/shared/errors/app-error';
import { openJobCsv } from '@comps/shared/jobs/job-csv-download';
import { callInternal, createInternalClient } from '@comps/shared/trpc/internal-client';
import type { JobsGateway } from './jobs-gateway.js';

/** The part of the jobs service's tRPC router the dashboard calls. */
interface JobsListClient {
  jobs: { list: { query(input: { workspaceId: string }, options: { signal: AbortSignal }): Promise<unknown> } };
}

export interface JobsServiceOptions {
  /** The jobs service's internal address (JOBS_URL). */
  url: string;
  internalToken: string;
  timeoutMs: number;
}

/**
 * The jobs service over its internal port: the list over tRPC, the CSV streamed over plain HTTP
 * (openJobCsv, as the api downloads it). @comps/jobs depends on @comps/accounts, so accounts cannot import its client
 * (the projects would reference each other): the router is not typed here, and its answer is checked
 * against the contract's schema instead.
 */
export function jobsServiceGateway(options: JobsServiceOptions): JobsGateway {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  const client = createInternalClient<AnyRouter>({ ...options, dispatcher }) as unknown as JobsListClient;
  return {
    async listJobs(workspaceId, signal) {
      const answer = await callInternal('jobs service', () => client.jobs.list.query({ workspaceId }, { signal }));
      return jobListSchema.parse(answer).jobs;
    },
    async openCsv(workspaceId, jobId, signal): Promise<Readable | null> {
      try {
        return await openJobCsv({ ...options, dispatcher }, { workspaceId, jobId }, signal);
      } catch (error) {
        if (error instanceof AppError && (error.code === 'job_not_found' || error.code === 'invalid_request')) return null;
        throw error;
      }
    },
    close: () => dispatcher.close(),
  };
}
