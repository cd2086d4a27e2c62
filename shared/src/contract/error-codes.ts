import { z } from 'zod';

/** The contract's one table from error code to HTTP status. */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_idempotency_key: 400,
  invalid_webhook_url: 400,
  unauthorized: 401,
  quota_exhausted: 403,
  site_not_enabled: 403,
  not_found: 404,
  job_not_found: 404,
  item_not_found: 404,
  tracked_search_not_found: 404,
  webhook_not_found: 404,
  delivery_not_found: 404,
  method_not_allowed: 405,
  active_job_exists: 409,
  job_finished: 409,
  idempotency_key_reused: 409,
  idempotency_in_progress: 409,
  tracked_search_limit: 409,
  run_in_progress: 409,
  webhook_limit: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  concurrency_limited: 429,
  internal_error: 500,
  upstream_error: 502,
  upstream_blocked: 502,
  upstream_rate_limited: 503,
  data_gate_closed: 503,
  service_unavailable: 503,
  upstream_timeout: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const errorCodeSchema = z.enum(ERROR_CODES);

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
