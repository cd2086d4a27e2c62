import type { Logger } from '../logging/create-logger.js';
import { fullGarbageCollection } from './full-garbage-collection.js';
import { IdleCollector, timerSchedule } from './idle-collector.js';
import type { NativeHelper } from './native-helper.js';

/** Growth of the resident memory since the last idle collection below which another is not worth its pause. */
const MIN_GROWTH_BYTES = 16 * 1024 * 1024;

/**
 * A service's idle collection (`API_IDLE_GC_MS`, `JOBS_IDLE_GC_MS`; 0: none): V8's collection for a
 * process short of memory, which frees the pages' text and bodies and shrinks the young generation a
 * load grew, then glibc's free pages given back, where the native helper was built (without it,
 * V8's plain full collection); and idle parse threads stop.
 */
export function idleCollection(idleMs: number, logger: Logger, native: NativeHelper, parseThreads?: { release(afterward?: () => void): void }): IdleCollector | null {
  if (idleMs === 0) return null;
  const collectGarbage = 'unavailable' in native ? fullGarbageCollection() : native.lowMemoryNotification;
  const collector: IdleCollector = new IdleCollector({
    idleMs,
    minGrowthBytes: MIN_GROWTH_BYTES,
    collect: () => {
      collectGarbage();
      if ('mallocTrim' in native) native.mallocTrim();
    },
    // The parse threads' heaps are their own, which the collection does not reach, and a thread's heap
    // is not seen in the growth until it is gone: idle threads stop at every idle moment, and glibc gives
    // back what they freed once they have stopped, unless work has come meanwhile.
    ...(parseThreads
      ? {
          onIdle: () =>
            parseThreads.release(() => {
              if (collector.isIdle && 'mallocTrim' in native) native.mallocTrim();
            }),
        }
      : {}),
    residentBytes: () => process.memoryUsage.rss(),
    schedule: timerSchedule(),
    onCollected: ({ beforeBytes, afterBytes, pauseMs }) =>
      logger.debug({ residentMbBefore: Math.round(beforeBytes / 1048576), residentMbAfter: Math.round(afterBytes / 1048576), pauseMs: Math.round(pauseMs) }, 'idle garbage collection'),
    now: () => performance.now(),
  });
  return collector;
}
