import type { Logger } from '@comps/shared/logging/create-logger';
import { createInternalTrpc } from '@comps/shared/internal/internal-trpc';
import type { ExploreDeps } from '../explore/explore-service.js';
import type { Handover } from '../explore/handover.js';
import type { JobServiceDeps } from '../jobs/job-service.js';
import type { TrackedSearchDeps } from '../tracked/tracked-search-service.js';
import type { DeliveryServiceDeps } from '../webhooks/delivery-service.js';

export interface JobsContext {
  jobs: JobServiceDeps;
  tracked: TrackedSearchDeps;
  deliveries: DeliveryServiceDeps;
  explore: ExploreDeps;
  /** How this call's answer reaches its caller (the metered procedures charge only for one received). */
  handover: Handover;
  logger: Logger;
}

export const { router, procedure, createCallerFactory } = createInternalTrpc<JobsContext>();
