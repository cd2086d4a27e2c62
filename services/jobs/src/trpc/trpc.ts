import type { Logger } from '@comps/shared/logging/create-logger';
import { createInternalTrpc } from '@comps/shared/internal/internal-trpc';
import type { JobServiceDeps } from '../jobs/job-service.js';

export interface JobsContext {
  jobs: JobServiceDeps;
  logger: Logger;
}

export const { router, procedure } = createInternalTrpc<JobsContext>();
