import { AppError } from '../errors/app-error.js';

/**
 * How long after its creation a thing answers a creation made again with its id: the one call made
 * again comes within seconds (a timeout, then at once). An older one, or one made for another
 * workspace or with other values, is not answered: the id was made again by mistake.
 */
export const REPEATED_CREATION_WINDOW_MS = 60_000;

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
