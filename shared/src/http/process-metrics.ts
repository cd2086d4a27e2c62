import type { IdleCollectionTotals } from '../runtime/idle-collector.js';

/** What `process.memoryUsage()` gives, the part these gauges report. */
export type MemoryFigures = Pick<NodeJS.MemoryUsage, 'rss' | 'heapTotal' | 'heapUsed' | 'external' | 'arrayBuffers'>;

const GAUGES: ReadonlyArray<[name: string, help: string, field: keyof MemoryFigures]> = [
  ['process_resident_memory_bytes', 'Resident memory of the process, in bytes.', 'rss'],
  ['nodejs_heap_size_total_bytes', 'Size of the V8 heap, in bytes.', 'heapTotal'],
  ['nodejs_heap_size_used_bytes', 'Bytes of the V8 heap in use.', 'heapUsed'],
  ['nodejs_external_memory_bytes', 'Memory of objects outside the V8 heap that JavaScript holds (buffers among them), in bytes.', 'external'],
  ['nodejs_array_buffers_bytes', 'Memory of ArrayBuffers and Buffers, in bytes (part of the external memory).', 'arrayBuffers'],
];

/**
 * The process's memory in Prometheus' text format (four gauges under prom-client's names, and the array buffers
 * beside them), so that an operator sees where a service's resident memory goes (the V8 heap or page buffers)
 * without a profiler.
 */
export function processMemoryMetrics(figures: MemoryFigures): string {
  return GAUGES.map(([name, help, field]) => `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${name} ${figures[field]}\n`).join('');
}

const IDLE_COUNTERS: ReadonlyArray<[name: string, help: string, field: keyof IdleCollectionTotals]> = [
  ['comps_idle_collections_total', 'Garbage collections made once the process had been idle (API_IDLE_GC_MS, JOBS_IDLE_GC_MS).', 'collections'],
  ['comps_idle_collection_freed_bytes_total', 'Resident memory the idle collections gave back, in bytes.', 'freedBytes'],
  ['comps_idle_collection_pause_seconds_total', 'Time the idle collections paused the process, in seconds.', 'pauseSeconds'],
];

/** The idle collections as counters (none when the process does not make them), so that an operator sees what they give back and cost. */
export function idleCollectionMetrics(totals: IdleCollectionTotals | null): string {
  if (!totals) return '';
  return IDLE_COUNTERS.map(([name, help, field]) => `# HELP ${name} ${help}\n# TYPE ${name} counter\n${name} ${totals[field]}\n`).join('');
}
