import { IDEMPOTENCY_KEY_PATTERN } from '@comps/shared/contract/listing-params';
import { AppError } from '@comps/shared/errors/app-error';
import type { ApiRequest } from '../http/route-result.js';

/** The caller's Idempotency-Key, or null when none was sent; a malformed one, or several, is a 400. */
export function idempotencyKeyOf(request: Pick<ApiRequest, 'headers'>): string | null {
  const sent = request.headers['idempotency-key'];
  if (sent === undefined) return null;
  // Node would join repeated headers with ", "; two keys must not quietly become a third one.
  if (sent.length !== 1) throw new AppError('invalid_idempotency_key', 'Send one Idempotency-Key header, not several');
  const key = sent[0]!;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new AppError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  return key;
}
