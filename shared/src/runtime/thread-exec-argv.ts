/** Node's options that run code before the program's own: a preloaded CommonJS module, an ES module imported first, a loader. */
const PRELOAD_OPTIONS = new Set(['--require', '-r', '--import', '--loader', '--experimental-loader']);

/**
 * The options a thread running our own code alone is given when the process's are not inherited: each is one a worker
 * accepts (`new Worker` refuses V8's flags, options of the process as a whole such as `--title`, and some of the
 * profilers' settings such as `--cpu-prof-dir`, with ERR_WORKER_INVALID_EXEC_ARGV) and one that still matters to it
 * (its stacks source-mapped, its profile taken, how it warns). Those with a value take it after "=" or as the next argument.
 */
export const THREAD_FLAGS: ReadonlySet<string> = new Set([
  '--enable-source-maps',
  '--cpu-prof',
  '--heap-prof',
  '--no-warnings',
  '--trace-warnings',
  '--no-deprecation',
  '--trace-deprecation',
  '--throw-deprecation',
  '--pending-deprecation',
  '--trace-uncaught',
]);
export const THREAD_OPTIONS_WITH_VALUE: ReadonlySet<string> = new Set(['--conditions', '-C', '--unhandled-rejections', '--disable-warning']);

function nameOf(option: string): string {
  const equals = option.indexOf('=');
  return equals === -1 ? option : option.slice(0, equals);
}

/**
 * The `execArgv` of a worker thread that runs our own code alone, from its process's: undefined (the thread inherits
 * them as they are, V8's flags included) unless they preload code. Inherited, a preload would load again in every
 * thread: an operator's instrumentation, or in tests tsx's and tap's loader hooks (with them the parse-thread tests'
 * file took 49 s of CPU, about 20 without). Then the thread gets the options of `THREAD_FLAGS` and
 * `THREAD_OPTIONS_WITH_VALUE` among them and no other: a list, because given explicitly a worker refuses many that
 * it takes inherited. V8's flags hold for it anyway: they are the process's (the api's `--initial-old-space-size`).
 * A profiler's directory is one a worker refuses: a thread's profile then goes to the working directory.
 * `NODE_OPTIONS` is not in `execArgv`, and a thread takes what it holds either way: a preload put there (as tap
 * does in what tests spawn) loads in every thread; the tests run the services without it.
 */
export function threadExecArgv(execArgv: readonly string[]): string[] | undefined {
  if (!execArgv.some((option) => PRELOAD_OPTIONS.has(nameOf(option)))) return undefined;
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index += 1) {
    const option = execArgv[index]!;
    const name = nameOf(option);
    const valueFollows = name === option && (PRELOAD_OPTIONS.has(name) || THREAD_OPTIONS_WITH_VALUE.has(name));
    if (THREAD_FLAGS.has(option)) kept.push(option);
    else if (THREAD_OPTIONS_WITH_VALUE.has(name)) kept.push(...execArgv.slice(index, valueFollows ? index + 2 : index + 1));
    if (valueFollows) index += 1;
  }
  return kept;
}
