import { createInternalClient, type InternalClientOptions } from '../internal-client.js';
import type { ContractClient } from '../procedure-contract.js';
import { jobsContract } from './jobs-contract.js';

/** The jobs service as the other services call it: its internal procedures, typed by their contract. */
export type JobsClient = ContractClient<typeof jobsContract>;

/** Calls fail as AppErrors with jobs' own codes (job_not_found, active_job_exists with its jobId, …). */
export function createJobsClient(options: InternalClientOptions): JobsClient {
  return createInternalClient('jobs service', jobsContract, options);
}
