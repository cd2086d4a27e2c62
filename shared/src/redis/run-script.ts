import { createHash } from 'node:crypto';
import type { RedisClient } from './create-redis.js';

export interface LuaScript {
  source: string;
  sha1: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/** EVALSHA with a fallback to EVAL the first time a server sees the script. */
export async function runScript(
  client: RedisClient,
  script: LuaScript,
  keys: string[],
  args: Array<string | number>,
): Promise<unknown> {
  const options = { keys, arguments: args.map(String) };
  try {
    return await client.evalSha(script.sha1, options);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
      return client.eval(script.source, options);
    }
    throw error;
  }
}
