import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Writable } from 'node:stream';

/** Where a process's stdout and stderr go: the launcher's own (`inherit`), one stream, or one stream each. */
export type ProcessOutput = 'inherit' | Writable | { stdout: Writable; stderr: Writable };

export interface ManagedProcessOptions {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  output: ProcessOutput;
  /** A URL that answers 2xx once the process is ready. */
  readyUrl: string;
  /**
   * Runs the process in a process group of its own, so that a signal to the launcher's group (a terminal's Ctrl-C,
   * `docker stop`, systemd) reaches only the launcher, which then stops the processes in order.
   */
  detached?: boolean;
  /** Opens an IPC channel to a Node process: it shuts down when the channel closes (the launcher is gone). */
  ipc?: boolean;
  /** For a process that cannot watch an IPC channel (Caddy): the kernel sends it SIGTERM when the launcher dies. */
  terminateWithParent?: boolean;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why it could not be started (code -1): the command spawned and the system's error. */
  spawnError?: string;
}

export function describeExit(exit: ProcessExit): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/**
 * The command wrapped in `setpriv --pdeathsig SIGTERM` (util-linux) where that works: setpriv sets the parent-death
 * signal, then becomes the command (same pid). Elsewhere the command as is.
 */
function withParentDeathSignal(command: string, args: string[]): { command: string; args: string[] } {
  const probe = spawnSync('setpriv', ['--pdeathsig', 'SIGTERM', '--', 'true'], { stdio: 'ignore' });
  return probe.status === 0 ? { command: 'setpriv', args: ['--pdeathsig', 'SIGTERM', '--', command, ...args] } : { command, args };
}

/**
 * A wrapper (setpriv) that started but could not run the service's command exits 127 (not found) or 126 (not
 * executable), as a shell does: the service could not be started, which an exit code alone would not say.
 */
function wrapperExecFailure(spawned: string, service: string, exit: ProcessExit): string | null {
  if (spawned === service || (exit.code !== 126 && exit.code !== 127)) return null;
  return `could not be started (${service}: ${exit.code === 127 ? 'not found' : 'not executable'}; ${spawned} exited with code ${exit.code})`;
}

function stdioFor(output: ProcessOutput, ipc: boolean): StdioOptions {
  const streams = output === 'inherit' ? 'inherit' : 'pipe';
  return ipc ? ['ignore', streams, streams, 'ipc'] : ['ignore', streams, streams];
}

/** Copies a child's output without ever pausing the child: a destination that fails drops the output instead. */
function forward(from: NodeJS.ReadableStream | null | undefined, to: Writable): void {
  from?.on('data', (chunk: Buffer) => {
    if (to.writable && !to.destroyed) to.write(chunk);
  });
}

/** One child process of the stack: started, awaited until ready, stopped with SIGTERM (then SIGKILL). */
export class ManagedProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<ProcessExit> = Promise.resolve({ code: null, signal: null });
  private stopping = false;
  private readonly unexpectedExitListeners: Array<(exit: ProcessExit) => void> = [];

  constructor(readonly options: ManagedProcessOptions) {}

  get name(): string {
    return this.options.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Called each time the process ends after it was ready without stop() or kill() asking it to (a crash). */
  onUnexpectedExit(listener: (exit: ProcessExit) => void): void {
    this.unexpectedExitListeners.push(listener);
  }

  /**
   * Spawns the process and waits until its ready URL answers. A process that exits first, is not ready in time, or
   * whose start is aborted is ended and the promise rejects with the reason.
   */
  async start(signal?: AbortSignal, timeoutMs = 30_000): Promise<void> {
    signal?.throwIfAborted();
    const { env, cwd, output } = this.options;
    this.stopping = false;
    const { command, args } = this.options.terminateWithParent
      ? withParentDeathSignal(this.options.command, this.options.args)
      : this.options;
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: stdioFor(output, this.options.ipc ?? false),
      detached: this.options.detached ?? false,
    });
    this.child = child;
    if (output !== 'inherit') {
      const { stdout, stderr } = 'write' in output ? { stdout: output, stderr: output } : output;
      forward(child.stdout, stdout);
      forward(child.stderr, stderr);
    }
    // The launcher never sends messages; the channel only tells the child when the launcher is gone.
    child.channel?.unref();
    let ready = false;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, exitSignal) => resolve({ code, signal: exitSignal }));
      // The command that could not be spawned (the service's, or setpriv where it wraps it), with the system's reason.
      child.once('error', (error) => resolve({ code: -1, signal: null, spawnError: `${command}: ${error.message}` }));
    });
    void this.exited.then((exit) => {
      if (ready && !this.stopping && this.child === child) for (const listener of this.unexpectedExitListeners) listener(exit);
    });
    try {
      await this.waitUntilReady(child, command, timeoutMs, signal);
      ready = true;
    } catch (error) {
      await this.stop(2000);
      throw error;
    }
  }

  private async waitUntilReady(child: ChildProcess, command: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exit: ProcessExit | undefined;
    void this.exited.then((value) => {
      exit = value;
    });
    while (Date.now() < deadline) {
      signal?.throwIfAborted();
      if (exit) {
        const reason = exit.code === -1 ? `could not be started (${exit.spawnError ?? command})` : (wrapperExecFailure(command, this.options.command, exit) ?? describeExit(exit));
        throw new Error(`${this.options.name} ${reason} before it was ready`);
      }
      try {
        const response = await fetch(this.options.readyUrl, { signal: AbortSignal.timeout(1000) });
        await response.body?.cancel();
        if (response.ok && this.child === child) return;
      } catch {
        // Not listening yet.
      }
      await sleep(100, undefined, signal ? { signal } : {}).catch(() => undefined);
    }
    throw new Error(`${this.options.name} was not ready within ${timeoutMs} ms (${this.options.readyUrl})`);
  }

  /** Sends SIGTERM and waits for the exit; SIGKILL after `graceMs`. Resolves with the exit code (null if killed). */
  async stop(graceMs = 10_000): Promise<number | null> {
    return (await this.stopWithExit(graceMs)).code;
  }

  async stopWithExit(graceMs = 10_000): Promise<ProcessExit> {
    const child = this.child;
    this.stopping = true;
    if (!child || !this.running) return this.exited;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), Math.max(0, graceMs));
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  /** Ends the process at once, with no chance to clean up (crash tests; the launcher's last resort). */
  async kill(): Promise<void> {
    this.stopping = true;
    if (!this.child || !this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** For the launcher's exit handler, where nothing can be awaited. */
  killNow(): void {
    if (this.child && this.running) this.child.kill('SIGKILL');
  }
}
