/** Keeps every background promise reachable, so shutdown can wait for them and none fails unseen. */
export class TaskTracker {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  track<T>(promise: Promise<T>): void {
    const tracked = promise.then(
      () => undefined,
      (error: unknown) => this.onError(error),
    );
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  get size(): number {
    return this.pending.size;
  }

  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
