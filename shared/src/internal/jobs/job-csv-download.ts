import type { Readable } from 'node:stream';
import { request } from 'undici';
import { errorBodySchema } from '../../contract/error-body.js';
import { AppError } from '../../errors/app-error.js';
import { INTERNAL_TOKEN_HEADER } from '../../http/require-internal-token.js';
import type { InternalClientOptions } from '../internal-client.js';

/** The jobs service's internal CSV route takes the workspace in this header. */
export const JOB_WORKSPACE_HEADER = 'x-workspace-id';

/**
 * A job's CSV, streamed from the jobs service's internal port (tRPC answers whole JSON values; a CSV
 * of any size streams over plain HTTP). For the api's download and the dashboard's. A job the
 * workspace does not own is `job_not_found`, as everywhere; a malformed id `invalid_request`.
 */
export async function openJobCsv(options: InternalClientOptions, input: { workspaceId: string; jobId: string }, signal?: AbortSignal): Promise<Readable> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(`${options.url.replace(/\/$/, '')}/internal/jobs/${encodeURIComponent(input.jobId)}/download.csv`, {
      headers: { [INTERNAL_TOKEN_HEADER]: options.internalToken, [JOB_WORKSPACE_HEADER]: input.workspaceId },
      dispatcher: options.dispatcher,
      headersTimeout: options.timeoutMs,
      // The body streams for as long as the job is large; only silence ends it.
      bodyTimeout: 60_000,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    throw new AppError('service_unavailable', 'The jobs service is unavailable; try again shortly', { retryAfter: 2, cause: error });
  }
  if (response.statusCode === 200) return response.body;
  const parsed = errorBodySchema.safeParse(await response.body.json().catch(() => null));
  if (parsed.success && parsed.data.code !== 'internal_error' && parsed.data.code !== 'unauthorized') throw new AppError(parsed.data.code, parsed.data.error);
  throw new AppError('service_unavailable', 'The jobs service is unavailable; try again shortly', { retryAfter: 2 });
}
