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
