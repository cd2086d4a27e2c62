import { execFile } from 'node:child_process';
import path from 'node:path';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';
import { TEST_DATABASE_URL } from './test-env.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the operators' admin command against the test database. */
export function runAdmin(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT_DIR, 'services', 'accounts', 'dist', 'cli', 'admin.js'), ...args],
      { env: { PATH: process.env.PATH ?? '', DATABASE_URL: TEST_DATABASE_URL, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
