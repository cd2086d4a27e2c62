import type { Logger } from '@comps/shared/logging/create-logger';
import type { JobsDb } from '../db/database.js';
import { renewLeases } from './task-repository.js';

export interface LeaseKeeperOptions {
  /** A lease's length; it is renewed every third of it. */
  leaseMs: number;
}

/**
 * Keeps the leases of every task this process holds: one UPDATE per renewal for all of them (not
 * one per task), every third of a lease, so that a process that dies lets its tasks go within one
 * lease while a live one never loses a long run. Leases another process took over (this one could
 * not renew in time, e.g. a stalled database) are reported; after each renewal `afterRenewal` is
 * told which are still held (a job's cancellation asked of another process is seen there).
 */
export class LeaseKeeper {
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly db: JobsDb,
    private readonly owner: string,
    private readonly options: LeaseKeeperOptions,
    private readonly hooks: { onLost: (ids: string[]) => void; afterRenewal: (held: ReadonlySet<string>) => Promise<void> },
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  hold(id: string): void {
    this.held.add(id);
  }

  release(id: string): void {
    this.held.delete(id);
  }

  get heldIds(): string[] {
    return [...this.held];
  }

  start(): void {
    this.timer = setInterval(() => {
      // One renewal at a time; stop() waits for the one running.
      this.renewing ??= this.renew().finally(() => {
        this.renewing = null;
      });
    }, Math.max(200, Math.floor(this.options.leaseMs / 3)));
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    const ids = this.heldIds;
    if (ids.length === 0) return;
    try {
      const still = await renewLeases(this.db, this.owner, ids, new Date(this.now().getTime() + this.options.leaseMs));
      const lost = ids.filter((id) => !still.has(id) && this.held.has(id));
      if (lost.length > 0) {
        this.logger.warn({ lost }, 'task leases lost to another process');
        this.hooks.onLost(lost);
      }
      await this.hooks.afterRenewal(still);
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'task lease renewal failed');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
  }
}
