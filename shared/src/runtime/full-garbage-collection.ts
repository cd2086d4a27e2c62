import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full garbage collection, as a function: the `gc()` that `--expose-gc` gives, taken without
 * that flag, so that every way of starting a service has it (npm start, compose, the tests) and the
 * process's own global never gets one. The flag is set only while a fresh context is made, whose
 * global `gc` is V8's (as Jest's leak detector obtains it).
 *
 * A full collection, not the low-memory one a debugger's "collect garbage" asks for: that one also
 * shrinks V8's heap (its young generation to the least), which the next load then grows again. In
 * bench:api, with glibc's free pages given back after each: the api held 96–99 MB after the load
 * with it and 137–141 with this, but spent 17–21 ms of CPU a search at one caller in the level after
 * an idle moment, against 15–16 with this (13–16 with no idle collection).
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
