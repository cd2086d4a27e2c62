import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full garbage collection, as a function: the `gc()` that `--expose-gc` gives, taken without
 * that flag, so that every way of starting a service has it (npm start, compose, the tests) and the
 * process's own global never gets one. The flag is set only while a fresh context is made, whose
 * global `gc` is V8's (as Jest's leak detector obtains it).
 *
 * The idle collection runs V8's low-memory collection instead where the native helper is built
 * (native-helper.ts), and this where it is not; the tests use this to collect at a point they choose.
 */
export function fullGarbageCollection(): () => void {
  const exposed = typeof globalThis.gc === 'function';
  if (!exposed) setFlagsFromString('--expose-gc');
  try {
    const gc = runInNewContext('gc') as () => void;
    return () => gc();
  } finally {
    if (!exposed) setFlagsFromString('--no-expose-gc');
  }
}
