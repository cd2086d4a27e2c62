import type { Kysely } from 'kysely';
import type { AccountsDatabase } from '../../services/accounts/src/db/database.js';

/** The requests the ledger charged a workspace for (accounts' own rows), each with the allowance its unit came from (null: its own reservation). */
export async function chargedRequests(db: Kysely<AccountsDatabase>, workspaceId: string): Promise<Array<{ requestId: string; allowanceId: string | null }>> {
  return db.selectFrom('usageReservations').select(['requestId', 'allowanceId']).where('workspaceId', '=', workspaceId).where('state', '=', 'charged').execute();
}
