import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { newTaskId } from '@comps/shared/ids';
import type { Logger } from '@comps/shared/logging/create-logger';
import { abortableSleep } from '@comps/shared/runtime/abortable-sleep';
import type { JobsDb, TaskRow } from '../db/database.js';
import { LeaseKeeper } from './lease-keeper.js';
import { retryDelayMs, type RetryPolicy } from './retry-policy.js';
import { claimTasks, deleteHeldTask, giveUpHeldTask, insertTask, rescheduleHeldTask } from './task-repository.js';

/** What a task's run is given. */
export interface TaskContext {
  task: TaskRow;
  /** The process holding the task (its lease owner). */
  owner: string;
  /** This run's share of the runner's slots; `giveBack` returns those it does not need, at once. */
  slots: number;
  giveBack(count: number): void;
  /** Aborts when the runner stops and the grace for work in flight is over. */
  signal: AbortSignal;
}

/**
 * What follows a run: `done` deletes the task; `later` lets its lease go and runs it again at
 * `runAt`; `settled`: the run already ended or rescheduled its task in a transaction of its own
 * (a job that ended with its page), or lost it to another process: nothing more to do.
 */
export type TaskOutcome = { next: 'done' } | { next: 'later'; runAt: Date } | { next: 'settled' };

export interface TaskHandler {
  kind: string;
  /** The most slots one run can use (a job's turn: its pages ahead); at least one is taken. */
  maxSlots?: number;
  /** The most runs of this kind at once in this process (webhook attempts must not take every slot from jobs). */
  maxRunning?: number;
  run(payload: unknown, context: TaskContext): Promise<TaskOutcome>;
  /** After each lease renewal: the tasks of this kind the process still holds. */
  afterRenewal?(held: TaskRow[]): Promise<void>;
  /** Tasks of this kind lost to another process. */
  onLost?(tasks: TaskRow[]): void;
}

/** Work that runs periodically, once across every process (one row claimed like any task). */
export interface PeriodicTask {
  name: string;
  intervalMs: number;
  run(now: Date, signal: AbortSignal): Promise<void>;
}

export interface TaskRunnerOptions {
  /** Slots of this process: the units of work it runs at once (a job page is one). */
  concurrency: number;
  leaseMs: number;
  /** How often an idle runner looks for work when nothing woke it. */
  pollMs: number;
  /** For runs that throw: how often and when they are tried again before being given up. */
  retry: RetryPolicy;
}

export interface TaskRunnerDeps {
  db: JobsDb;
  logger: Logger;
  now: () => Date;
  random: () => number;
  /** Told when each run of a task that is not periodic starts and ends (the idle collection waits for none to be running). */
  work?: { begin(): () => void };
}

/**
 * The durable task runner of the jobs service: one table of tasks (tasks/task-repository.ts),
 * claimed with FOR UPDATE SKIP LOCKED by any number of processes, each task held by one of them
 * under a lease the LeaseKeeper renews, run by the handler of its kind. A run that throws is tried
 * again with backoff (the retry policy) and, its retries spent, given up and kept for operators. A
 * process that dies lets its tasks go when their leases lapse; another takes them over. Periodic
 * work is a task too, so it runs once per period across every process, not once in each.
 */
export class TaskRunner {
  readonly owner = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private readonly handlers = new Map<string, TaskHandler>();
  private readonly periodic: PeriodicTask[] = [];
  private readonly periodicKinds = new Set<string>();
  /** Runs in progress, by task id. */
  private readonly runs = new Map<string, { task: TaskRow; done: Promise<void> }>();
  private slotsInUse = 0;
  private readonly abandon = new AbortController();
  private readonly keeper: LeaseKeeper;
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | null = null;
  private woken = false;

  constructor(
    private readonly deps: TaskRunnerDeps,
    private readonly options: TaskRunnerOptions,
  ) {
    // Every run in flight listens to it: as many listeners as runs, by design.
    setMaxListeners(0, this.abandon.signal);
    this.keeper = new LeaseKeeper(
      deps.db,
      this.owner,
      { leaseMs: options.leaseMs },
      {
        onLost: (ids) => this.each(ids, (handler, tasks) => handler.onLost?.(tasks)),
        afterRenewal: async (held) => {
          await Promise.all([...this.byKind([...held])].map(([handler, tasks]) => handler.afterRenewal?.(tasks)));
        },
      },
      deps.logger,
      deps.now,
    );
  }

  handle(handler: TaskHandler): this {
    this.handlers.set(handler.kind, handler);
    return this;
  }

  /** Runs `task` every `intervalMs`, once across the processes that register it. */
  every(task: PeriodicTask): this {
    this.periodic.push(task);
    this.periodicKinds.add(task.name);
    this.handlers.set(task.name, {
      kind: task.name,
      run: async (_payload, context) => {
        const now = this.deps.now();
        try {
          await task.run(now, context.signal);
        } catch (error) {
          // A periodic task is never given up: it tries again at its next period.
          this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error), task: task.name }, 'periodic task failed; it runs again at its next period');
        }
        return { next: 'later', runAt: new Date(now.getTime() + task.intervalMs) };
      },
    });
    return this;
  }

  /** Adds the periodic tasks' rows (once: a row that exists is kept) and starts claiming. */
  async start(): Promise<void> {
    const now = this.deps.now();
    for (const task of this.periodic) {
      await insertTask(this.deps.db, { id: newTaskId(), kind: task.name, taskKey: `periodic:${task.name}`, payload: {}, runAt: now, createdAt: now });
    }
    this.keeper.start();
    this.loop = this.run();
  }

  /** Work may be waiting: look now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** The tasks this process runs right now (for tests and shutdown). */
  get running(): number {
    return this.runs.size;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      const free = this.options.concurrency - this.slotsInUse;
      let claimed: TaskRow[] = [];
      let limit = free;
      if (free > 0) {
        try {
          const now = this.deps.now();
          const { kinds, room } = this.claimable();
          limit = Math.min(free, room);
          claimed = kinds.length === 0 ? [] : await withTransaction(this.deps.db, (trx) =>
            claimTasks(trx, this.owner, kinds, now, new Date(now.getTime() + this.options.leaseMs), limit, [...this.runs.keys()]),
          );
        } catch (error) {
          this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'claiming tasks failed; will retry');
        }
        // The free slots are shared out among the tasks claimed together.
        const share = Math.max(1, Math.floor(free / Math.max(1, claimed.length)));
        for (const task of claimed) this.startRun(task, share);
      }
      if (claimed.length > 0 && claimed.length === limit) continue;
      if (!this.woken) await this.nextWake();
    }
  }

  /**
   * The kinds this process may claim now (a bounded kind only while it runs fewer than its bound),
   * and how many tasks one claim may take so that no bounded kind goes past its bound (the claims
   * after it take the rest at once).
   */
  private claimable(): { kinds: string[]; room: number } {
    const running = new Map<string, number>();
    for (const { task } of this.runs.values()) running.set(task.kind, (running.get(task.kind) ?? 0) + 1);
    let room = Number.POSITIVE_INFINITY;
    const kinds: string[] = [];
    for (const handler of this.handlers.values()) {
      const left = handler.maxRunning === undefined ? Number.POSITIVE_INFINITY : handler.maxRunning - (running.get(handler.kind) ?? 0);
      if (left <= 0) continue;
      kinds.push(handler.kind);
      room = Math.min(room, left);
    }
    return { kinds, room };
  }

  private nextWake(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pollMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeUp = null;
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private startRun(task: TaskRow, share: number): void {
    const handler = this.handlers.get(task.kind)!;
    const slots = Math.max(1, Math.min(share, handler.maxSlots ?? 1));
    this.slotsInUse += slots;
    let held = slots;
    const giveBack = (count: number) => {
      const returned = Math.min(count, held);
      held -= returned;
      this.slotsInUse -= returned;
      if (returned > 0) this.wake();
    };
    this.keeper.hold(task.id);
    // Periodic runs are brief and come every second or so: counted, they would keep the process from ever being idle.
    const endWork = this.periodicKinds.has(task.kind) ? null : (this.deps.work?.begin() ?? null);
    const context: TaskContext = { task, owner: this.owner, slots, giveBack, signal: this.abandon.signal };
    const done = this.execute(handler, task, context).finally(() => {
      endWork?.();
      giveBack(held);
      this.keeper.release(task.id);
      this.runs.delete(task.id);
      // Its task may be due again at once (a job back in line): look now, not at the next poll.
      this.wake();
    });
    this.runs.set(task.id, { task, done });
  }

  private async execute(handler: TaskHandler, task: TaskRow, context: TaskContext): Promise<void> {
    const { db } = this.deps;
    try {
      const outcome = await handler.run(JSON.parse(task.payload) as unknown, context);
      if (outcome.next === 'done') await deleteHeldTask(db, task.id, this.owner);
      else if (outcome.next === 'later') await rescheduleHeldTask(db, task.id, this.owner, { runAt: outcome.runAt });
    } catch (error) {
      await this.failed(task, error).catch((failure: unknown) =>
        this.deps.logger.error({ err: failure, taskId: task.id }, 'a failed task could not be rescheduled; its lease lapses and it runs again'),
      );
    }
  }

  /** A run that threw: tried again after a backoff, or given up once its retries are spent. */
  private async failed(task: TaskRow, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const unexpected = !(error instanceof AppError) || error.code === 'internal_error';
    const delay = retryDelayMs(this.options.retry, task.attempts + 1, this.deps.random);
    const now = this.deps.now();
    if (delay === null) {
      this.deps.logger.error({ err: error, taskId: task.id, kind: task.kind, attempts: task.attempts + 1 }, 'task given up after its retries');
      await giveUpHeldTask(this.deps.db, task.id, this.owner, message, now);
      return;
    }
    if (unexpected) this.deps.logger.error({ err: error, taskId: task.id, kind: task.kind }, 'task failed; it runs again after a pause');
    else this.deps.logger.warn({ err: message, taskId: task.id, kind: task.kind }, 'task failed; it runs again after a pause');
    await rescheduleHeldTask(this.deps.db, task.id, this.owner, { runAt: new Date(now.getTime() + delay), failed: { error: message } });
  }

  private *byKind(ids: string[]): Generator<[TaskHandler, TaskRow[]]> {
    const groups = new Map<string, TaskRow[]>();
    for (const id of ids) {
      const run = this.runs.get(id);
      if (run) groups.set(run.task.kind, [...(groups.get(run.task.kind) ?? []), run.task]);
    }
    for (const [kind, tasks] of groups) yield [this.handlers.get(kind)!, tasks];
  }

  private each(ids: string[], visit: (handler: TaskHandler, tasks: TaskRow[]) => void): void {
    for (const [handler, tasks] of this.byKind(ids)) visit(handler, tasks);
  }

  /**
   * Stops claiming; runs in flight get `graceMs` to finish, then their signal aborts (they end as
   * they can: a job's page goes back to the queue); leases stop being renewed once all have ended.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    const runs = Promise.all([...this.runs.values()].map((run) => run.done));
    await Promise.race([runs, abortableSleep(graceMs)]);
    this.abandon.abort(new AppError('service_unavailable', 'The jobs service is stopping'));
    await runs;
    await this.keeper.stop();
  }
}
