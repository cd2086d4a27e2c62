/**
 * A V8 CPU profile (`node --cpu-prof`) read into self time by part of the program: where a process's
 * milliseconds go, by the module each sampled function belongs to. Pure: no I/O.
 */

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** The parts a search's work falls into, first match wins (by the function's file, or V8's own names). */
const PARTS: Array<[string, (name: string, url: string) => boolean]> = [
  ['idle (waiting for I/O)', (name) => name === '(idle)'],
  ['garbage collection', (name) => name === '(garbage collector)'],
  ['parsing the page (htmlparser2 and our parser)', (_, url) => /htmlparser2|entities|domhandler|\/market\/parse\//.test(url)],
  ['comps (classification, statistics)', (_, url) => /\/shared\/(dist|src)\/comps\//.test(url)],
  ['metering (admission, quota, settlement)', (_, url) => /\/shared\/(dist|src)\/metering\//.test(url)],
  ['market client (fetch, layout checks)', (_, url) => /\/shared\/(dist|src)\/market\//.test(url)],
  ['Redis client', (_, url) => /node_modules\/(@redis|redis|rate-limiter-flexible)\//.test(url)],
  ['tRPC and HTTP client (undici)', (_, url) => /node_modules\/(@trpc|undici)\//.test(url)],
  ['validation (zod)', (_, url) => /node_modules\/zod\//.test(url)],
  ['Koa and its router, body parsing', (_, url) => /node_modules\/(koa|@koa|koa-body|co-body|raw-body)/.test(url)],
  ['logging (pino)', (_, url) => /node_modules\/(pino|sonic-boom|thread-stream)/.test(url)],
  ['database client (mysql2, kysely)', (_, url) => /node_modules\/(mysql2|kysely)\//.test(url)],
  ['Node HTTP, streams, sockets, zlib', (_, url) => /^node:(internal\/)?(http|_http|net|stream|streams|zlib|buffer|tls|dns|timers|events)/.test(url) || /^node:_/.test(url)],
  ['our service code', (_, url) => /\/services\/[a-z-]+\/(dist|src)\/|\/shared\/(dist|src)\//.test(url)],
  ['V8 and native (JSON, regular expressions, builtins)', (name, url) => url === '' || name === '(program)'],
  ['other Node internals', (_, url) => url.startsWith('node:')],
];

/** Milliseconds of self time by part, largest first. */
export function selfTimeByPart(profile: CpuProfile): Array<{ part: string; ms: number }> {
  const partOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url } = node.callFrame;
    partOf.set(node.id, PARTS.find(([, matches]) => matches(functionName, url))?.[0] ?? 'other libraries');
  }
  const totals = new Map<string, number>();
  profile.samples.forEach((nodeId, index) => {
    const part = partOf.get(nodeId) ?? 'other libraries';
    totals.set(part, (totals.get(part) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return [...totals.entries()].map(([part, ms]) => ({ part, ms })).sort((a, b) => b.ms - a.ms);
}
