import type { ServiceName } from './launch-stack.js';

/**
 * Variables a service's process runs with beyond its configuration, for the C library beneath Node,
 * chosen by measurement: `npm start` and the tests start the services with them (`launchStack`),
 * and compose.yaml says the same (a test holds it to it). What they answer: every page read makes
 * two allocations of its size (1–2 MB), its bytes and its text (an external string, which only a
 * full collection frees).
 *
 * The api runs with glibc's defaults, and V8's but for one flag (below), measured against the alternatives. Capping its old
 * generation (`--max-old-space-size=256`) made V8 collect the whole heap three times as often and
 * cut its resident memory after 10,000 searches from 215–218 to 164–196 MB, but in two pairs of
 * runs taken in turns it served 50 and 64 searches a second against 86 and 87, at 18–23 ms of CPU a
 * search against 11.6–11.7; the goal is memory without losing throughput, so it is not shipped
 * (README, "What limits the figures"). With the jobs worker's thresholds below as well as the cap it held
 * 246 MB.
 *
 * The jobs worker, whose goal is pages a second, keeps freed memory for the next page: glibc maps
 * an allocation over its threshold afresh and gives memory at the top of its heap back once more
 * than the trim threshold is free, so each page's two allocations were faulted in anew (about 240
 * page faults a 240-row page). With both thresholds raised, a page's memory is the last page's:
 * reading one took 21.6 ms of CPU instead of 25.2 (3 runs each; 45 faults a page, and 0.8 ms of
 * system time instead of 2.1), and bench:jobs ran 5–10% more pages a second in three pairs of runs
 * taken in turns, for about 37 MB more resident memory.
 */
export const SERVICE_RUNTIME_ENV: Readonly<Partial<Record<ServiceName, Readonly<Record<string, string>>>>> = {
  jobs: { MALLOC_MMAP_THRESHOLD_: '33554432', MALLOC_TRIM_THRESHOLD_: '67108864' },
};

/**
 * Node flags a service's process starts with, chosen by measurement, as the variables above (compose.yaml says the same, and
 * services/Dockerfile for the api, its default command).
 *
 * The api's old generation starts at 128 MB, below which V8 starts no full collection (an embedder's initial
 * size is also its least: V8's `min_old_generation_size_`). Left to itself, V8 set the limit about 23 MB above
 * the 34 MB the api keeps alive, and started marking once less than its young generation (16 MB) was left
 * below it, so twenty pages read at once (a bulk search at concurrency 20) brought two full collections a call,
 * each 20–50 ms of the main thread and more of V8's helper threads. With this, one every other call (what
 * starts it is then the pages' bytes outside the heap). bench:bulk at concurrency 20, eight calls a run, seven
 * pairs of runs taken in turns: 1.66–1.84 against 1.70–2.03 times the ideal, better in six pairs, and the
 * stack's CPU a call 521–655 against 585–829 ms; bench:api unchanged (98 MB 12 s after its 10,000 searches
 * both ways, 205 against 219 MB as the load stopped). The memory stays V8's to give back: the idle collection's
 * low-memory collection does not keep it.
 */
export const SERVICE_NODE_FLAGS: Readonly<Partial<Record<ServiceName, readonly string[]>>> = {
  api: ['--initial-old-space-size=128'],
};
