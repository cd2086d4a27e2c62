import type { ServiceName } from './launch-stack.js';

/** How a service's process runs: Node's flags, and variables for the C library beneath it. */
export interface ServiceRuntime {
  nodeFlags: readonly string[];
  env: Readonly<Record<string, string>>;
}

/**
 * The settings each service's process runs with, chosen by measurement: `npm start` and the tests
 * start them so (`launchStack`), and compose.yaml and the image's default command say the same (a
 * test holds them to it). Both answer the same cost: every page read makes two allocations of its
 * size (1–2 MB), its bytes and its text (an external string, which only a full collection frees).
 *
 * The api caps its old generation at 256 MB. Not for the cap itself (its live heap is 30–45 MB and
 * its answers are bounded, at most 200 items a page), but for what the cap does to V8's heuristics:
 * below 2 GB V8 lets the old generation grow by a smaller factor before the next full collection
 * (1.3 at 256 MB, 4 by default), so past pages' text and the start's garbage go sooner. bench:api
 * (2026-11-25): 218 MB resident after 10,000 searches by default, 166–182 MB with the cap, at the
 * same throughput against the floor. A smaller young generation (`--max-semi-space-size`) saves more
 * and costs throughput, so it keeps Node's default.
 *
 * The jobs worker, whose goal is pages a second, keeps freed memory for the next page: glibc maps
 * an allocation over its threshold afresh and gives memory at the top of its heap back once more
 * than the trim threshold is free, so each page's two allocations were faulted in anew (about 240
 * page faults and 2 ms of CPU a 240-row page). With both thresholds raised, a page's memory is the
 * last page's: reading one took 21.6 ms of CPU instead of 25.2 (3 runs each, 45 faults a page),
 * and bench:jobs ran 5–10% more pages a second in three pairs of runs taken in turns.
 */
export const SERVICE_RUNTIME: Readonly<Record<ServiceName, ServiceRuntime>> = {
  api: { nodeFlags: ['--max-old-space-size=256'], env: {} },
  jobs: { nodeFlags: [], env: { MALLOC_MMAP_THRESHOLD_: '33554432', MALLOC_TRIM_THRESHOLD_: '67108864' } },
  accounts: { nodeFlags: [], env: {} },
  'market-sim': { nodeFlags: [], env: {} },
};
