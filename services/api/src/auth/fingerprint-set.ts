/** Bytes of a key's SHA-256 kept as its fingerprint: 128 bits, so that two keys never share one in practice. */
export const FINGERPRINT_BYTES = 16;

const EMPTY = 0;
const TOMBSTONE = 1;
const USED = 2;
const INITIAL_SLOTS = 1024;

/**
 * A set of 16-byte fingerprints in flat memory: open addressing with linear probing over one
 * buffer, 16 bytes a slot plus one state byte, at most half full. A million fingerprints take about
 * 34 MB (2^21 slots), where a JavaScript Set of hex strings takes several times that. The
 * fingerprints are SHA-256 prefixes, uniformly spread, so their first bytes are the slot index.
 * No I/O: bench/valid-keys-bench.ts measures it.
 */
export class FingerprintSet {
  private slots: Buffer;
  private states: Uint8Array;
  private mask: number;
  private used = 0;
  private tombstones = 0;

  constructor(expected = 0) {
    let capacity = INITIAL_SLOTS;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = Buffer.alloc(capacity * FINGERPRINT_BYTES);
    this.states = new Uint8Array(capacity);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.used;
  }

  /** Memory held, in bytes (for the benchmark and the logs). */
  get bytes(): number {
    return this.slots.length + this.states.length;
  }

  has(fingerprint: Buffer): boolean {
    return this.find(fingerprint) >= 0;
  }

  /** Adds it; false when it was there already. */
  add(fingerprint: Buffer): boolean {
    if (fingerprint.length !== FINGERPRINT_BYTES) throw new RangeError(`a fingerprint is ${FINGERPRINT_BYTES} bytes`);
    if (this.find(fingerprint) >= 0) return false;
    if ((this.used + this.tombstones + 1) * 2 > this.states.length) this.rebuild(this.used + 1);
    let slot = this.start(fingerprint);
    while (this.states[slot] === USED) slot = (slot + 1) & this.mask;
    if (this.states[slot] === TOMBSTONE) this.tombstones -= 1;
    fingerprint.copy(this.slots, slot * FINGERPRINT_BYTES);
    this.states[slot] = USED;
    this.used += 1;
    return true;
  }

  /** Removes it; false when it was not there. */
  delete(fingerprint: Buffer): boolean {
    const slot = this.find(fingerprint);
    if (slot < 0) return false;
    this.states[slot] = TOMBSTONE;
    this.used -= 1;
    this.tombstones += 1;
    return true;
  }

  /** The first slot a fingerprint may sit in: its first four bytes, which SHA-256 spreads evenly. */
  private start(fingerprint: Buffer): number {
    return fingerprint.readUInt32LE(0) & this.mask;
  }

  private find(fingerprint: Buffer): number {
    if (fingerprint.length !== FINGERPRINT_BYTES) return -1;
    for (let slot = this.start(fingerprint); ; slot = (slot + 1) & this.mask) {
      const state = this.states[slot];
      if (state === EMPTY) return -1;
      if (state === USED && fingerprint.compare(this.slots, slot * FINGERPRINT_BYTES, (slot + 1) * FINGERPRINT_BYTES) === 0) return slot;
    }
  }

  /** A fresh table for at least `expected` fingerprints (tombstones dropped). */
  private rebuild(expected: number): void {
    const old = { slots: this.slots, states: this.states };
    const next = new FingerprintSet(expected);
    for (let slot = 0; slot < old.states.length; slot += 1) {
      if (old.states[slot] === USED) next.add(old.slots.subarray(slot * FINGERPRINT_BYTES, (slot + 1) * FINGERPRINT_BYTES));
    }
    this.slots = next.slots;
    this.states = next.states;
    this.mask = next.mask;
    this.used = next.used;
    this.tombstones = 0;
  }
}
