import { execFile } from 'node:child_process';
import path from 'node:path';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';
import type { TestStack } from './test-stack.js';
import { withoutTapHooks } from './without-tap-hooks.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the operators' admin command against a test stack's accounts service, as operators run it against theirs. */
export function runAdmin(stack: Pick<TestStack, 'accountsInternalUrl' | 'internalToken'>, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      ...withoutTapHooks(process.execPath, [path.join(ROOT_DIR, 'services', 'accounts', 'dist', 'cli', 'admin.js'), ...args]),
      { env: { PATH: process.env.PATH ?? '', ACCOUNTS_URL: stack.accountsInternalUrl, INTERNAL_TOKEN: stack.internalToken, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
