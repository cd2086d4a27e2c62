import type { Test } from 'tap';
import type { z } from 'zod';
import { errorBodySchema, type ErrorBody } from '@comps/shared/contract/error-body';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import type { HttpResponse } from './http-client.js';

type Assert = Test;

/** The body is exactly the schema's shape: parsing must succeed and strip nothing. */
export function assertShape<S extends z.ZodType>(t: Assert, schema: S, body: unknown, message = 'body has the contract shape'): z.output<S> {
  const parsed = schema.safeParse(body);
  t.ok(parsed.success, `${message}${parsed.success ? '' : `: ${parsed.error.message}`}`);
  if (parsed.success) t.strictSame(parsed.data, body, `${message} (no extra fields)`);
  return (parsed.success ? parsed.data : body) as z.output<S>;
}

/** A contract error: the status, the code, `requestId` equal to `X-Request-Id`, and no internals. */
export function assertError(t: Assert, response: HttpResponse, status: number, code: string): ErrorBody {
  t.equal(response.status, status, `status ${status}`);
  const body = assertShape(t, errorBodySchema, response.body, `${code} error body`);
  t.equal(body?.code, code, `code ${code}`);
  t.match(body?.requestId, REQUEST_ID_PATTERN, 'requestId is req_ + ULID');
  t.equal(response.headers.get('x-request-id'), body?.requestId, 'requestId repeats X-Request-Id');
  t.notMatch(response.text, /(\bat [\w.<>]+ \(|node:internal|\.ts:\d+|\.js:\d+|SELECT |INSERT |UPDATE |ER_[A-Z_]+|ECONNREFUSED)/, 'no stack trace or SQL in the body');
  if (status === 429 || status === 503) {
    const retryAfter = Number(response.headers.get('retry-after'));
    t.ok(Number.isInteger(retryAfter) && retryAfter >= 1, 'Retry-After is an integer of at least 1');
    t.equal(body?.retryAfter, retryAfter, 'retryAfter repeats Retry-After');
  }
  return body;
}
