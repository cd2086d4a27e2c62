import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';

export interface ManagedProcessOptions {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Where stdout and stderr go; `inherit` shares the launcher's. */
  output: 'inherit' | Writable;
  /** A URL that answers 2xx once the process is ready. */
  readyUrl: string;
}

/** One child process of the stack: started, awaited until ready, stopped with SIGTERM (then SIGKILL). */
export class ManagedProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<number | null> = Promise.resolve(null);
  private stopping = false;

  constructor(readonly options: ManagedProcessOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the exit code when the process ends unexpectedly (not through stop()). */
  onUnexpectedExit(listener: (code: number | null) => void): void {
    void this.exited.then((code) => {
      if (!this.stopping) listener(code);
    });
  }

  async start(timeoutMs = 30_000): Promise<void> {
    const { command, args, env, cwd, output } = this.options;
    this.stopping = false;
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    if (output !== 'inherit') {
      child.stdout?.pipe(output, { end: false });
      child.stderr?.pipe(output, { end: false });
    }
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', () => resolve(-1));
    });
    await this.waitUntilReady(timeoutMs);
  }

  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exitedEarly = false;
    void this.exited.then(() => {
      exitedEarly = true;
    });
    while (Date.now() < deadline) {
      if (exitedEarly) throw new Error(`${this.options.name} exited before it was ready`);
      try {
        const response = await fetch(this.options.readyUrl, { signal: AbortSignal.timeout(1000) });
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${this.options.name} was not ready within ${timeoutMs} ms (${this.options.readyUrl})`);
  }

  async stop(graceMs = 10_000): Promise<number | null> {
    const child = this.child;
    if (!child || !this.running) return this.exited;
    this.stopping = true;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }

  /** For tests of crash recovery: ends the process at once, with no chance to clean up. */
  async kill(): Promise<void> {
    if (!this.child || !this.running) return;
    this.stopping = true;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
