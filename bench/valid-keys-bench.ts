import { createHash } from 'node:crypto';
import { FINGERPRINT_BYTES, FingerprintSet } from '../services/api/src/auth/fingerprint-set.js';

/**
 * `npm run bench:keys`: what each api process's directory of valid API keys costs at 1,000,000
 * keys: the memory it holds (its own buffers, and the process's heap and resident growth while it
 * is built), the time to build it, and a lookup of a key that is there and of one that is not.
 * Goal: under 100 MB for a million keys. A JavaScript Set of the same fingerprints in hex is
 * measured in the same run, for comparison. Run with --expose-gc for steady memory figures.
 */
const KEYS = Number(process.env.BENCH_KEYS ?? '1000000');
const LOOKUPS = 2_000_000;
const MB = 1024 * 1024;

const gc = (globalThis as { gc?: () => void }).gc;
function settled(): NodeJS.MemoryUsage {
  gc?.();
  return process.memoryUsage();
}

/** The fingerprint of the i-th made-up key (SHA-256 prefixes, as real ones are). */
function fingerprint(i: number, salt: string): Buffer {
  // A copy: a slice would keep the hash's whole pooled slab alive.
  return Buffer.from(createHash('sha256').update(`${salt}${i}`).digest().subarray(0, FINGERPRINT_BYTES));
}

const present = Array.from({ length: 1000 }, (_, i) => fingerprint(i, 'key'));
const absent = Array.from({ length: 1000 }, (_, i) => fingerprint(i, 'nobody'));

function nsPerLookup(has: (fingerprint: Buffer) => boolean, probes: Buffer[]): number {
  let found = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < LOOKUPS; i += 1) if (has(probes[i % probes.length]!)) found += 1;
  const ns = Number(process.hrtime.bigint() - started) / LOOKUPS;
  if (found !== (probes === present ? LOOKUPS : 0)) throw new Error('a lookup answered wrong');
  return ns;
}

const before = settled();
let started = performance.now();
// Sized for the count accounts reports with the first page of a full load, as the directory does.
const set = new FingerprintSet(KEYS);
for (let i = 0; i < KEYS; i += 1) set.add(fingerprint(i, 'key'));
const buildMs = performance.now() - started;
const after = settled();
const hit = nsPerLookup((key) => set.has(key), present);
const miss = nsPerLookup((key) => set.has(key), absent);

const beforeHex = settled();
started = performance.now();
const hex = new Set<string>();
for (let i = 0; i < KEYS; i += 1) hex.add(fingerprint(i, 'key').toString('hex'));
const hexBuildMs = performance.now() - started;
const afterHex = settled();
const hexHit = nsPerLookup((key) => hex.has(key.toString('hex')), present);

const table = (set.bytes / MB).toFixed(1);
const grown = ((after.rss - before.rss) / MB).toFixed(1);
const external = ((after.arrayBuffers - before.arrayBuffers) / MB).toFixed(1);
console.log(`valid-key directory, ${KEYS.toLocaleString('en')} keys (${gc ? 'with' : 'without'} --expose-gc):`);
console.log(`  FingerprintSet: ${table} MB of buffers; RSS +${grown} MB, array buffers +${external} MB, heap +${((after.heapUsed - before.heapUsed) / MB).toFixed(1)} MB; built in ${buildMs.toFixed(0)} ms (hashing included)`);
console.log(`  lookups: ${hit.toFixed(0)} ns for a key that is there, ${miss.toFixed(0)} ns for one that is not`);
console.log(`  for comparison, a Set of hex strings: heap +${((afterHex.heapUsed - beforeHex.heapUsed) / MB).toFixed(1)} MB, RSS +${((afterHex.rss - beforeHex.rss) / MB).toFixed(1)} MB, built in ${hexBuildMs.toFixed(0)} ms, ${hexHit.toFixed(0)} ns a hit`);
console.log(`  goal: under 100 MB for 1,000,000 keys: ${set.bytes / MB < 100 && (after.rss - before.rss) / MB < 100 ? 'met' : 'NOT met'}`);
