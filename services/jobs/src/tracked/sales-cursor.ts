import { AppError } from '@comps/shared/errors/app-error';

/** Where a page of sales ended: the last sale's sold date and item id (sales run newest first, then by item id descending). */
export interface SalesPosition {
  soldDate: string;
  itemId: string;
}

const POSITION = /^(\d{4}-\d{2}-\d{2})_(\d{9,15})$/;

/** An opaque cursor (base64url of `date_itemId`): callers pass back what they were given. */
export function encodeSalesCursor(position: SalesPosition): string {
  return Buffer.from(`${position.soldDate}_${position.itemId}`).toString('base64url');
}

export function decodeSalesCursor(cursor: string): SalesPosition {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) throw new AppError('invalid_request', 'Invalid query parameters', { details: [{ path: 'cursor', message: 'must be a nextCursor from an earlier page' }] });
  return { soldDate: match[1]!, itemId: match[2]! };
}
