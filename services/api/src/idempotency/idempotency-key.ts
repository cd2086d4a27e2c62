import { IDEMPOTENCY_KEY_PATTERN } from '@comps/shared/contract/idempotency';
import { AppError } from '@comps/shared/errors/app-error';

/** The caller's Idempotency-Key (each header with all the values sent), or null when none was sent; a malformed one, or several, is a 400. */
export function idempotencyKeyOf(headers: Record<string, string[] | undefined>): string | null {
  const sent = headers['idempotency-key'];
  if (sent === undefined) return null;
  // Node would join repeated headers with ", "; two keys must not quietly become a third one.
  if (sent.length !== 1) throw new AppError('invalid_idempotency_key', 'Send one Idempotency-Key header, not several');
  const key = sent[0]!;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new AppError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  return key;
}
