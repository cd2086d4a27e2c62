import { createHash } from 'node:crypto';

export interface LuaScript {
  source: string;
  sha1: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

type ScriptOptions = { keys: string[]; arguments: Array<string | Buffer> };

/** What running a script needs of a client (any type mapping: strings, or Buffers for binary values). */
export interface ScriptClient {
  evalSha(sha1: string, options: ScriptOptions): Promise<unknown>;
  eval(source: string, options: ScriptOptions): Promise<unknown>;
}

/** EVALSHA with a fallback to EVAL the first time a server sees the script (or after it restarted). */
export async function runScript(
  client: ScriptClient,
  script: LuaScript,
  keys: string[],
  args: Array<string | number | Buffer>,
): Promise<unknown> {
  const options = { keys, arguments: args.map((arg) => (Buffer.isBuffer(arg) ? arg : String(arg))) };
  try {
    return await client.evalSha(script.sha1, options);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
      return client.eval(script.source, options);
    }
    throw error;
  }
}
