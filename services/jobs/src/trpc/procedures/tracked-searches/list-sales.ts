import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { listArchiveSales } from '../../../tracked/tracked-search-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.trackedSearches.sales;

/** A page of the archive's sales, newest sold first. */
export const listSalesProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => listArchiveSales(ctx.tracked, input.workspaceId, input.trackedSearchId, input));
