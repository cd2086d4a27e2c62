import type { JobRecord } from '@comps/shared/contract/job';
import { eventually, request, type HttpResponse } from './http-client.js';
import type { TestStack } from './test-stack.js';

export function createJob(stack: Pick<TestStack, 'baseUrl'>, apiKey: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<JobRecord>> {
  return request<JobRecord>(stack.baseUrl, '/v1/scrape/max', { method: 'POST', apiKey, body, headers });
}

export async function jobResults(stack: Pick<TestStack, 'baseUrl'>, apiKey: string, jobId: string, query = ''): Promise<JobRecord> {
  const response = await request<JobRecord>(stack.baseUrl, `/v1/scrape/max/results/${jobId}${query}`, { apiKey });
  if (response.status !== 200) throw new Error(`results of ${jobId}: ${response.status} ${response.text}`);
  return response.body;
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** Polls the job until `until` holds (by default: it ended). */
export function waitForJob(
  stack: Pick<TestStack, 'baseUrl'>,
  apiKey: string,
  jobId: string,
  until: (job: JobRecord) => boolean = (job) => ENDED.has(job.status),
  timeoutMs = 30_000,
): Promise<JobRecord> {
  return eventually(`job ${jobId} reaches the state asked for`, async () => {
    const job = await jobResults(stack, apiKey, jobId);
    return until(job) ? job : undefined;
  }, { timeoutMs, intervalMs: 100 });
}
