import type { ParseThreadFigures } from '../market/parse-threads.js';
import type { IdleCollectionTotals } from '../runtime/idle-collector.js';

/** What `process.memoryUsage()` gives, the part these gauges report. */
export type MemoryFigures = Pick<NodeJS.MemoryUsage, 'rss' | 'heapTotal' | 'heapUsed' | 'external' | 'arrayBuffers'>;

/** One metric of a set of figures: its name, its help line, and the figure it reports. */
type MetricOf<Figures> = [name: string, help: string, field: keyof Figures];

/** `figures` in Prometheus' text format, each metric with its help and type lines. */
function metricLines<Figures extends { [Field in keyof Figures]: number }>(type: 'gauge' | 'counter', metrics: ReadonlyArray<MetricOf<Figures>>, figures: Figures): string {
  return metrics.map(([name, help, field]) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${figures[field]}\n`).join('');
}

const GAUGES: ReadonlyArray<MetricOf<MemoryFigures>> = [
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
  return metricLines('gauge', GAUGES, figures);
}

const IDLE_COUNTERS: ReadonlyArray<MetricOf<IdleCollectionTotals>> = [
  ['comps_idle_collections_total', 'Garbage collections made once the process had been idle (API_IDLE_GC_MS, JOBS_IDLE_GC_MS).', 'collections'],
  ['comps_idle_collection_freed_bytes_total', 'Resident memory the idle collections gave back, in bytes.', 'freedBytes'],
  ['comps_idle_collection_pause_seconds_total', 'Time the idle collections paused the process, in seconds.', 'pauseSeconds'],
];

/** The idle collections as counters (none when the process does not make them), so that an operator sees what they give back and cost. */
export function idleCollectionMetrics(totals: IdleCollectionTotals | null): string {
  return totals ? metricLines('counter', IDLE_COUNTERS, totals) : '';
}

/**
 * The parse threads (none when the service reads its pages on its main thread): how many run, and where the pages
 * were read, so that an operator sees whether the threads take the pages or are still loading when they come.
 */
export function parseThreadMetrics(figures: ParseThreadFigures | null): string {
  if (!figures) return '';
  return (
    '# HELP comps_parse_threads Threads that read search pages: loading their modules, or ready.\n# TYPE comps_parse_threads gauge\n' +
    `comps_parse_threads{state="starting"} ${figures.starting}\ncomps_parse_threads{state="ready"} ${figures.ready}\n` +
    '# HELP comps_search_pages_read_total Search answers handed to a parse thread, or read on the main thread (no thread was ready).\n# TYPE comps_search_pages_read_total counter\n' +
    `comps_search_pages_read_total{thread="parse"} ${figures.pagesInThreads}\ncomps_search_pages_read_total{thread="main"} ${figures.pagesOnCallingThread}\n`
  );
}
