import { AppError } from '../errors/app-error.js';

/**
 * How long after its creation a thing answers a creation made again with its id: the one call made
 * again comes within seconds (a timeout, then at once). An older one, or one made for another
 * workspace or with other values, is not answered: the id was made again by mistake.
 */
export const REPEATED_CREATION_WINDOW_MS = 60_000;

/**
 * What the service asked for a creation answers of the row that may already hold its id: none, so
 * create it; the row, when this is the creation made again (its workspace, its values as `matches`
 * says, made within the window); anything else is a caller's mistake, an error without a code,
 * which the procedure logs and answers as internal_error (nothing of the row leaves).
 */
export function repeatedCreationOf<R extends { id: string; workspaceId: string; createdAt: Date }>(
  row: R | undefined,
  asked: { workspaceId: string; now: Date; matches: (row: R) => boolean },
): R | undefined {
  if (!row) return undefined;
  if (row.workspaceId !== asked.workspaceId || !asked.matches(row) || asked.now.getTime() - row.createdAt.getTime() > REPEATED_CREATION_WINDOW_MS) {
    throw new Error(`Id ${row.id} was given to another creation (${asked.workspaceId})`);
  }
  return row;
}

/**
 * A creation in another service whose id the caller made (a tracked search, a webhook endpoint),
 * made again once with the same input when the call fails as unavailable: a call that timed out
 * may have been carried out after all, and that service answers an id it already holds with what
 * it created. A caller that retried the failure itself would get a second one (a tracked search
 * that runs and charges too, an endpoint that receives every event twice).
 */
export async function createdOnce<T>(create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'service_unavailable')) throw error;
    return create();
  }
}
