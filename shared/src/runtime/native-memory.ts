import { createRequire } from 'node:module';
import { NATIVE_HELPER_PATH } from '../../native/build.mjs';

/** What the native helper does (shared/native/release-memory.cc), or why it is not there. */
export type NativeMemory =
  | {
      /** glibc's `malloc_trim(0)`: true when memory was given back. */
      mallocTrim: () => boolean;
      /** V8's collection for a process short of memory: full collections, the young generation shrunk, free pages unmapped. */
      lowMemoryNotification: () => void;
    }
  | { unavailable: string };

/**
 * The native helper an idle process gives its memory back with. It is built where a C++ compiler
 * is (npm start, npm test, the image); without it the process runs as before, and its idle
 * collection is V8's plain full collection.
 */
export function loadNativeMemory(addonPath = NATIVE_HELPER_PATH): NativeMemory {
  try {
    const addon = createRequire(import.meta.url)(addonPath) as { mallocTrim: () => boolean; lowMemoryNotification: () => void };
    return { mallocTrim: () => addon.mallocTrim(), lowMemoryNotification: () => addon.lowMemoryNotification() };
  } catch (error) {
    return { unavailable: `${addonPath} could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
}
