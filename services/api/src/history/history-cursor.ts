import { z } from 'zod';
import { AppError } from '@comps/shared/errors/app-error';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';

/**
 * The `nextCursor` of `GET /requests`: the last request id returned, bound to its workspace, in
 * base64url. Opaque to callers; a cursor that does not decode, or that another workspace was
 * given, is a 400 rather than a silent first page.
 */
const cursorSchema = z.object({ v: z.literal(1), w: z.string().min(1), b: z.string().regex(REQUEST_ID_PATTERN) });

export function encodeHistoryCursor(workspaceId: string, beforeRequestId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, w: workspaceId, b: beforeRequestId })).toString('base64url');
}

export function decodeHistoryCursor(cursor: string, workspaceId: string): string {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const parsed = cursorSchema.safeParse(decoded);
  if (!parsed.success) {
    throw new AppError('invalid_request', 'Invalid cursor', {
      details: [{ path: 'cursor', message: 'is not a cursor this API issued' }],
    });
  }
  if (parsed.data.w !== workspaceId) {
    throw new AppError('invalid_request', 'Invalid cursor', {
      details: [{ path: 'cursor', message: 'was issued to another workspace' }],
    });
  }
  return parsed.data.b;
}
