import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { THREAD_FLAGS, THREAD_OPTIONS_WITH_VALUE, threadExecArgv } from '@comps/shared/runtime/thread-exec-argv';
import { forAll, integerBetween, type Random } from '../../helpers/property-test.js';

t.test('options that preload nothing are inherited whole: V8 flags and profiler settings that a Worker refuses when given them', async (t) => {
  t.equal(threadExecArgv([]), undefined, 'none');
  t.equal(threadExecArgv(['--initial-old-space-size=128']), undefined, "the api's own");
  t.equal(threadExecArgv(['--cpu-prof', '--cpu-prof-dir=/tmp/profiles', '--max-semi-space-size=16', '--enable-source-maps']), undefined, "a benchmark's");
  t.equal(threadExecArgv(['--imports=x', '--required']), undefined, 'only exact names preload');
});

t.test('with a preload, every form of a preload goes with its value, and of the rest only what a thread takes stays, in order', async (t) => {
  t.strictSame(
    threadExecArgv([
      '--import=file:///node_modules/@tapjs/tsx/dist/esm/import.mjs',
      '--enable-source-maps',
      '--import',
      './instrument.mjs',
      '--require=./otel.cjs',
      '-r',
      './otel.cjs',
      '--require',
      'dotenv/config',
      '--loader=ts-node/esm',
      '--loader',
      'ts-node/esm',
      '--experimental-loader=./hooks.mjs',
      '--experimental-loader',
      './hooks.mjs',
      '--cpu-prof',
      '--cpu-prof-dir=/tmp/profiles',
      '--initial-old-space-size=128',
      '--title=api',
      '--conditions',
      'development',
      '-C',
      'custom',
      '--unhandled-rejections=strict',
      '--no-warnings',
    ]),
    ['--enable-source-maps', '--cpu-prof', '--conditions', 'development', '-C', 'custom', '--unhandled-rejections=strict', '--no-warnings'],
  );
  t.strictSame(threadExecArgv(['--import']), [], 'a preload whose value is missing goes alone');
  t.strictSame(threadExecArgv(['--import=a=b', '--title=x=y', '--conditions=a=b']), ['--conditions=a=b'], 'a value may hold "="');
  t.strictSame(threadExecArgv(['--import', '--enable-source-maps']), [], "a preload's value is never taken for an option");
});

t.test('a Worker accepts every option the list keeps, each form (the profilers aside, which would write their files here)', async (t) => {
  const values: Record<string, string> = { '--conditions': 'development', '-C': 'development', '--unhandled-rejections': 'strict', '--disable-warning': 'DEP0005' };
  const given = [
    ...[...THREAD_FLAGS].filter((flag) => !flag.endsWith('-prof')),
    ...[...THREAD_OPTIONS_WITH_VALUE].flatMap((name) => [name, values[name]!, ...(name.startsWith('--') ? [`${name}=${values[name]!}`] : [])]),
  ];
  t.equal(given.length, 8 + 4 * 2 + 3, 'every option of the list, a value for each');
  const kept = threadExecArgv(['--import=x', ...given]);
  t.strictSame(kept, given, 'all kept, the preload alone gone');
  const [code] = await once(new Worker('process.exit(0)', { eval: true, execArgv: kept! }), 'exit');
  t.equal(code, 0);
  t.throws(() => new Worker('process.exit(0)', { eval: true, execArgv: ['--initial-old-space-size=128'] }), { code: 'ERR_WORKER_INVALID_EXEC_ARGV' }, 'what it drops, a Worker refuses');
});

const KEPT = [['--enable-source-maps'], ['--cpu-prof'], ['--no-warnings'], ['--conditions', 'dev'], ['--conditions=dev'], ['-C', 'x'], ['--unhandled-rejections=warn']];
const DROPPED = ['--cpu-prof-dir=/tmp/p', '--max-semi-space-size=16', '--expose-gc', '--title=api', '--initial-old-space-size=128', '--stack-trace-limit=50'];
const PRELOADS = ['--require', '-r', '--import', '--loader', '--experimental-loader'];
const pick = <T>(random: Random, items: readonly T[]): T => items[integerBetween(random, 0, items.length - 1)]!;

t.test('property: options built from kept, dropped and preloaded ones in any order and form: the kept ones alone when one preloads, else inherited', async (t) => {
  forAll(500, (random) => {
    const kept: string[] = [];
    const argv: string[] = [];
    let preloads = false;
    for (let count = integerBetween(random, 0, 12); count > 0; count -= 1) {
      const kind = random();
      if (kind < 0.4) {
        const option = pick(random, KEPT);
        kept.push(...option);
        argv.push(...option);
      } else if (kind < 0.7) {
        argv.push(pick(random, DROPPED));
      } else {
        preloads = true;
        const preload = pick(random, PRELOADS);
        // Its value, which may look like an option itself when it is the next argument.
        const value = pick(random, ['./a.mjs', 'pkg/register', '--enable-source-maps', 'file:///x/y.mjs?q=1']);
        if (random() < 0.5) argv.push(`${preload}=${value}`);
        else argv.push(preload, value);
      }
    }
    const result = threadExecArgv(argv);
    const expected = preloads ? kept : undefined;
    if (JSON.stringify(result) !== JSON.stringify(expected)) throw new Error(`${JSON.stringify(argv)} gave ${JSON.stringify(result)}, not ${JSON.stringify(expected)}`);
  });
  t.pass('500 cases');
});
