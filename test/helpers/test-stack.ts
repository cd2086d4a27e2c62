import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchStack, ROOT_DIR, type Stack, type StackOptions } from '@comps/scripts/stack/launch-stack';
import { CADDY_BIN, TEST_DATABASE_URL, TEST_REDIS_URL } from './test-env.js';

export interface TestStack extends Stack {
  internalToken: string;
  redisKeyPrefix: string;
  accountsInternalUrl: string;
  logFile: string;
}

interface Teardown {
  teardown(fn: () => unknown): void;
  name: string;
}

let counter = 0;

/**
 * A whole stack (accounts, api, jobs, Caddy) on free ports for one test file, on the shared test
 * database and real Redis under a key prefix of its own; stopped when the test ends. Service logs
 * go to test/.logs/, to read when a test fails.
 */
export async function startTestStack(
  t: Teardown,
  options: { env?: Record<string, string>; serviceEnv?: StackOptions['serviceEnv'] } = {},
): Promise<TestStack> {
  counter += 1;
  const logDir = path.join(ROOT_DIR, 'test', '.logs');
  mkdirSync(logDir, { recursive: true });
  const slug = `${path.basename(process.argv[1] ?? 'test', '.ts')}-${process.pid}-${counter}`;
  const logFile = path.join(logDir, `${slug}.log`);
  const output = createWriteStream(logFile);
  const internalToken = randomBytes(32).toString('base64url');
  const redisKeyPrefix = `test:${slug}:${randomBytes(4).toString('hex')}:`;
  const stack = await launchStack({
    env: {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      INTERNAL_TOKEN: internalToken,
      LOG_LEVEL: 'info',
      // Tests fire requests faster than the production default allows; capacity tests set their own.
      UPSTREAM_CALLS_PER_SECOND: '1000',
      UPSTREAM_MAX_IN_FLIGHT: '200',
      ...options.env,
    },
    ...(options.serviceEnv ? { serviceEnv: options.serviceEnv } : {}),
    output,
    caddyBin: CADDY_BIN,
  });
  t.teardown(async () => {
    await stack.stop();
    output.end();
  });
  return {
    ...stack,
    internalToken,
    redisKeyPrefix,
    accountsInternalUrl: `http://127.0.0.1:${stack.ports.accountsInternal}`,
    logFile,
  };
}
