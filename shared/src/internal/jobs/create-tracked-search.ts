import type { TrackedSearch } from '../../contract/tracked-search.js';
import { AppError } from '../../errors/app-error.js';
import { newTrackedSearchId } from '../../ids.js';
import type { JobsClient } from './jobs-client.js';

type CreateProcedure = JobsClient['trackedSearches']['create'];
type CreateInput = Parameters<CreateProcedure['mutate']>[0];

/**
 * Creates a tracked search through the jobs service (the api's POST and the dashboard's form), with
 * an id made here. A call that failed as unavailable may have timed out after the jobs service
 * created it: it is made again once with the same id, which answers that one. A caller that
 * retried the failure itself would get a second tracked search, which runs and charges too.
 */
export async function createTrackedSearchOnce(create: CreateProcedure, input: Omit<CreateInput, 'trackedSearchId'>): Promise<TrackedSearch> {
  const withId = { ...input, trackedSearchId: newTrackedSearchId() };
  try {
    return await create.mutate(withId);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'service_unavailable')) throw error;
    return create.mutate(withId);
  }
}
