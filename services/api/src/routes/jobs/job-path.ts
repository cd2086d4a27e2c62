import { z } from 'zod';
import { jobIdSchema } from '@comps/shared/contract/job';
import type { InputSpec } from '../../http/route-definition.js';

const jobPath = z.object({ jobId: jobIdSchema });

/** The `{jobId}` of the job routes. */
export const JOB_PATH: InputSpec<z.output<typeof jobPath>> = { schema: jobPath, fields: jobPath, message: 'Invalid job id' };
