import type { Readable } from 'node:stream';
import { request } from 'undici';
import { errorBodySchema } from '../../contract/error-body.js';
import type { ErrorCode } from '../../contract/error-codes.js';
import { AppError } from '../../errors/app-error.js';
import { INTERNAL_TOKEN_HEADER } from '../../http/require-internal-token.js';
import type { InternalClientOptions } from '../internal-client.js';

/** The jobs service's internal CSV routes take the workspace in this header. */
export const JOB_WORKSPACE_HEADER = 'x-workspace-id';

/** Refusals that are not the caller's doing: the service's own fault, an internal token that differs, a jobs service without that route (older than its caller). */
const SERVICE_FAULTS: readonly ErrorCode[] = ['internal_error', 'unauthorized', 'not_found'];

/**
 * A CSV streamed from the jobs service's internal port (tRPC answers whole JSON values; a CSV of
 * any size streams over plain HTTP). The service's own refusal is raised with its code: a resource
 * the workspace does not own is not found, as everywhere; a malformed id `invalid_request`.
 */
export async function openInternalCsv(options: InternalClientOptions, path: string, workspaceId: string, signal?: AbortSignal): Promise<Readable> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(`${options.url.replace(/\/$/, '')}${path}`, {
      headers: { [INTERNAL_TOKEN_HEADER]: options.internalToken, [JOB_WORKSPACE_HEADER]: workspaceId },
      dispatcher: options.dispatcher,
      headersTimeout: options.timeoutMs,
      // The body streams for as long as the CSV is large; only silence ends it.
      bodyTimeout: 60_000,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    throw new AppError('service_unavailable', 'The jobs service is unavailable; try again shortly', { retryAfter: 2, cause: error });
  }
  if (response.statusCode === 200) return response.body;
  const parsed = errorBodySchema.safeParse(await response.body.json().catch(() => null));
  if (parsed.success && !SERVICE_FAULTS.includes(parsed.data.code)) throw new AppError(parsed.data.code, parsed.data.error);
  throw new AppError('service_unavailable', 'The jobs service is unavailable; try again shortly', { retryAfter: 2 });
}

/** A job's CSV, for the api's download and the dashboard's; an unknown job is `job_not_found`. */
export function openJobCsv(options: InternalClientOptions, input: { workspaceId: string; jobId: string }, signal?: AbortSignal): Promise<Readable> {
  return openInternalCsv(options, `/internal/jobs/${encodeURIComponent(input.jobId)}/download.csv`, input.workspaceId, signal);
}

/** A tracked search's archive as CSV; an unknown tracked search is `tracked_search_not_found`. */
export function openSalesCsv(options: InternalClientOptions, input: { workspaceId: string; trackedSearchId: string }, signal?: AbortSignal): Promise<Readable> {
  return openInternalCsv(options, `/internal/tracked-searches/${encodeURIComponent(input.trackedSearchId)}/sales.csv`, input.workspaceId, signal);
}
