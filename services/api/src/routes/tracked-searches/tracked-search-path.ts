import { z } from 'zod';
import { trackedSearchIdSchema } from '@comps/shared/contract/tracked-search';
import type { InputSpec } from '../../http/route-definition.js';

const trackedSearchPath = z.object({ trackedSearchId: trackedSearchIdSchema.meta({ description: 'the tracked search id' }) });

/** The `{trackedSearchId}` of the tracked-search routes: a malformed one is a 400, an unknown one the jobs service's 404. */
export const TRACKED_SEARCH_PATH: InputSpec<z.output<typeof trackedSearchPath>> = { schema: trackedSearchPath, fields: trackedSearchPath, message: 'Invalid tracked search id' };
