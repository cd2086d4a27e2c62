import { createRequire } from 'node:module';
import { NATIVE_HELPER_PATH } from '../../native/build.mjs';
import type { Logger } from '../logging/create-logger.js';
import { copyAsLatin1, type JoinBytes, type OneByteText } from './one-byte-text.js';

/** What the native helper does (shared/native/native-helper.cc), or why it is not there. */
export type NativeHelper =
  | {
      /** Frees the blocks kept for the next pages' text (`oneByteText`), then glibc's `malloc_trim(0)`: true when glibc gave memory back. */
      mallocTrim: () => boolean;
      /** V8's collection for a process short of memory: full collections, the young generation shrunk, free pages unmapped. */
      lowMemoryNotification: () => void;
      /**
       * Bytes, in the parts they came in, as one character each, as `toString('latin1')` reads them. One
       * part is not copied (the string holds it); several are joined into memory an earlier page's text
       * held (kept for reuse, a few pages' worth, until `mallocTrim`), not memory fresh from the system.
       * It takes them: parts that are the whole of their buffer leave it empty (detached), so that V8
       * counts their memory once, as the string's; parts cut from a larger buffer, or under 64 KB in all
       * (copied), stay.
       */
      oneByteText: OneByteText;
      /**
       * Chunks of a page joined into one buffer of memory an earlier page held (kept for reuse, as
       * `oneByteText`'s), to be moved to a parse thread, whose `oneByteText` then reads it without a
       * copy; the block is kept again once the buffer's memory is freed, in whichever thread. Chunks
       * that are the whole of their buffer are left empty.
       */
      joinedBytes: JoinBytes;
    }
  | { unavailable: string };

/**
 * Below this size a page's bytes are copied into their string (`toString('latin1')`), which costs
 * microseconds: a string that holds its bytes would keep alive the whole block a small buffer may be
 * cut from (Node's pool), and saves nothing worth it.
 */
const MIN_SHARED_BYTES = 64 * 1024;

/**
 * The native helper (built where a C++ compiler is: npm start, npm test, the image). Without it the
 * process runs as before: its idle collection is V8's plain full collection, and each page read is
 * copied into its string.
 */
export function loadNativeHelper(addonPath = NATIVE_HELPER_PATH): NativeHelper {
  try {
    const addon = createRequire(import.meta.url)(addonPath) as {
      mallocTrim: () => boolean;
      lowMemoryNotification: () => void;
      oneByteText: (bytes: Uint8Array) => string;
      joinedOneByteText: (parts: readonly Uint8Array[]) => string;
      joinedBytes: (parts: readonly Uint8Array[]) => ArrayBuffer;
    };
    return {
      mallocTrim: () => addon.mallocTrim(),
      lowMemoryNotification: () => addon.lowMemoryNotification(),
      oneByteText: (parts) => {
        const length = parts.reduce((sum, part) => sum + part.byteLength, 0);
        if (length < MIN_SHARED_BYTES) return copyAsLatin1(parts);
        return parts.length === 1 ? addon.oneByteText(parts[0]!) : addon.joinedOneByteText(parts);
      },
      joinedBytes: (parts) => addon.joinedBytes(parts),
    };
  } catch (error) {
    return { unavailable: `${addonPath} could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
}

/** A service's helper, loaded once at its start; where it is not there, the service says so once. */
export function loadServiceNativeHelper(logger: Logger): NativeHelper {
  const native = loadNativeHelper();
  if ('unavailable' in native) {
    logger.warn({ reason: native.unavailable }, "native helper not loaded: idle collections give back less (V8's young generation, glibc's free pages stay), and each page read is copied once more");
  }
  return native;
}

/** How a process reads pages' bytes: into text, and (where its own thread can spare the copy) joined for a parse thread. */
export interface PageReading {
  oneByteText: OneByteText;
  /** Absent: a page's chunks go to the parse thread as they came, and the thread joins them. */
  joinBytes?: JoinBytes;
}

/** How a process reads page bytes into text: the helper's way, or a copy where the helper is not there (undefined). */
export function oneByteTextOf(native: NativeHelper): OneByteText | undefined {
  return 'unavailable' in native ? undefined : native.oneByteText;
}

/**
 * The helper's ways of reading pages' bytes, or undefined where it is not there (a copy each time then).
 * `joinForThreads`: a page's chunks are joined on the calling thread, and the parse thread reads them
 * without a copy: where the parse thread is what the caller waits for and the calling thread has time.
 */
export function pageReadingOf(native: NativeHelper, { joinForThreads }: { joinForThreads: boolean }): PageReading | undefined {
  if ('unavailable' in native) return undefined;
  return joinForThreads ? { oneByteText: native.oneByteText, joinBytes: native.joinedBytes } : { oneByteText: native.oneByteText };
}
