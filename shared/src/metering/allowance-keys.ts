/**
 * Where a deployment keeps its quota allowances in Redis (see QuotaAllowances): per workspace, one
 * hash with the allowance in use and its idle units, one set per allowance of the requests holding
 * a unit of it (scored by their lease, like admission permits), and the lock of whoever leases more.
 */
export class AllowanceKeys {
  constructor(private readonly prefix: string) {}

  /** `id`, `units` (idle), `ends` (ms: units are taken before it), `free`, `limit`, `used` (the counter as accounts last said), `taken` (ms of the last take). */
  hash(workspaceId: string): string {
    return `${this.prefix}${workspaceId}`;
  }

  /** The holders of one allowance's units: `heldPrefix(workspaceId) + allowanceId`. */
  heldPrefix(workspaceId: string): string {
    return `${this.prefix}held:${workspaceId}:`;
  }

  held(workspaceId: string, allowanceId: string): string {
    return `${this.heldPrefix(workspaceId)}${allowanceId}`;
  }

  /** Taken (SET NX) by the one process that leases more units for the workspace. */
  leaseLock(workspaceId: string): string {
    return `${this.prefix}leasing:${workspaceId}`;
  }
}
