import { createClient } from '@redis/client';
import { TEST_REDIS_URL } from './test-env.js';
import type { Teardown } from './test-stack.js';

/** A client of the tests' Redis, to read what the services keep there; closed at `t`'s teardown. */
export async function testRedis(t: Teardown) {
  const client = await createClient({ url: TEST_REDIS_URL }).connect();
  t.teardown(() => client.destroy());
  return client;
}
