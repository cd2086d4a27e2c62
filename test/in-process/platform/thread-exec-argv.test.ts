import t from 'tap';
import { withoutPreloads } from '@comps/shared/runtime/thread-exec-argv';
import { forAll, integerBetween, type Random } from '../../helpers/property-test.js';

t.test('every form of a preload goes, with its value; every other option stays, in order', async (t) => {
  t.strictSame(
    withoutPreloads([
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
    ]),
    ['--enable-source-maps', '--cpu-prof', '--cpu-prof-dir=/tmp/profiles', '--initial-old-space-size=128'],
  );
  t.strictSame(withoutPreloads([]), [], 'none given, none kept');
  t.strictSame(withoutPreloads(['--import']), [], 'a preload whose value is missing goes alone');
  t.strictSame(withoutPreloads(['--imports=x', '--required', '--inspect=127.0.0.1:9229']), ['--imports=x', '--required', '--inspect=127.0.0.1:9229'], 'only exact names go');
  t.strictSame(withoutPreloads(['--import=a=b', '--title=x=y']), ['--title=x=y'], 'a value may hold "="');
});

const KEPT = ['--enable-source-maps', '--cpu-prof', '--cpu-prof-dir=/tmp/p', '--max-semi-space-size=16', '--expose-gc', '--inspect', '--title=api', '--no-warnings'];
const PRELOADS = ['--require', '-r', '--import', '--loader', '--experimental-loader'];
const pick = <T>(random: Random, items: readonly T[]): T => items[integerBetween(random, 0, items.length - 1)]!;

t.test('property: options built from kept ones and preloads in any order and form come back as the kept ones alone', async (t) => {
  forAll(500, (random) => {
    const kept: string[] = [];
    const argv: string[] = [];
    for (let count = integerBetween(random, 0, 12); count > 0; count -= 1) {
      if (random() < 0.5) {
        const option = pick(random, KEPT);
        kept.push(option);
        argv.push(option);
        continue;
      }
      const preload = pick(random, PRELOADS);
      // Its value, which may look like an option itself when it is the next argument.
      const value = pick(random, ['./a.mjs', 'pkg/register', '--enable-source-maps', 'file:///x/y.mjs?q=1']);
      if (random() < 0.5) argv.push(`${preload}=${value}`);
      else argv.push(preload, value);
    }
    const result = withoutPreloads(argv);
    if (JSON.stringify(result) !== JSON.stringify(kept)) throw new Error(`${JSON.stringify(argv)} gave ${JSON.stringify(result)}, not ${JSON.stringify(kept)}`);
  });
  t.pass('500 cases');
});
