/** Node's options that run code before the program's own: a preloaded CommonJS module, an ES module imported first, a loader. */
const PRELOAD_OPTIONS = new Set(['--require', '-r', '--import', '--loader', '--experimental-loader']);

/**
 * A process's Node command-line options without those that run code first, for a worker thread that runs our own
 * code alone. Inherited, each would load again in every thread: an operator's instrumentation, or in tests tsx's and
 * tap's loader hooks (with them the parse-thread tests' file took 49 s of CPU, about 20 without). Every other option stays,
 * so a profile (`--cpu-prof`) still covers the threads and their stacks are still source-mapped. An option's value is
 * either in it (`--import=x`) or the next argument (`--import x`). `NODE_OPTIONS` is not in `execArgv`: a thread
 * reads it again from its environment.
 */
export function withoutPreloads(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index += 1) {
    const option = execArgv[index]!;
    const equals = option.indexOf('=');
    if (!PRELOAD_OPTIONS.has(equals === -1 ? option : option.slice(0, equals))) {
      kept.push(option);
      continue;
    }
    if (equals === -1) index += 1;
  }
  return kept;
}
