import t from 'tap';
import { applyAnnouncement } from '../../../services/api/src/auth/key-directory.js';
import { FINGERPRINT_BYTES, FingerprintSet } from '../../../services/api/src/auth/fingerprint-set.js';
import { forAll, integerBetween, type Random } from '../../helpers/property-test.js';

/** A fingerprint from a small pool, so that adds, deletes and lookups meet the same ones often. */
function fingerprintFrom(random: Random, pool: number): Buffer {
  const fingerprint = Buffer.alloc(FINGERPRINT_BYTES);
  fingerprint.writeUInt32LE(integerBetween(random, 0, pool - 1) * 2654435761 >>> 0, 0);
  fingerprint.writeUInt32LE(integerBetween(random, 0, 3), 8);
  return fingerprint;
}

t.test('behaves as a Set of the same fingerprints, whatever the adds, deletes and growth', async (t) => {
  forAll(60, (random) => {
    const set = new FingerprintSet();
    const reference = new Set<string>();
    const operations = integerBetween(random, 1, 6000);
    const pool = integerBetween(random, 1, 4000);
    for (let i = 0; i < operations; i += 1) {
      const fingerprint = fingerprintFrom(random, pool);
      const hex = fingerprint.toString('hex');
      const draw = random();
      if (draw < 0.55) {
        if (set.add(fingerprint) !== !reference.has(hex)) throw new Error(`add(${hex}) disagreed`);
        reference.add(hex);
      } else if (draw < 0.8) {
        if (set.delete(fingerprint) !== reference.has(hex)) throw new Error(`delete(${hex}) disagreed`);
        reference.delete(hex);
      } else if (set.has(fingerprint) !== reference.has(hex)) {
        throw new Error(`has(${hex}) disagreed`);
      }
      if (set.size !== reference.size) throw new Error(`size ${set.size}, expected ${reference.size}`);
    }
    for (const hex of reference) if (!set.has(Buffer.from(hex, 'hex'))) throw new Error(`lost ${hex}`);
  });
  t.pass('60 random runs agreed with a Set');
});

t.test('grows at half full, and a fingerprint of another length is never a member', async (t) => {
  const set = new FingerprintSet();
  t.equal(set.bytes, 1024 * 17, '1,024 slots to start');
  for (let i = 0; i < 513; i += 1) {
    const fingerprint = Buffer.alloc(FINGERPRINT_BYTES);
    fingerprint.writeUInt32LE(i, 4);
    set.add(fingerprint);
  }
  t.equal(set.bytes, 2048 * 17, 'twice as many after the 513th');
  t.equal(set.has(Buffer.alloc(8)), false);
  t.throws(() => set.add(Buffer.alloc(8)), RangeError);
});

t.test('announcements: + adds, - removes, anything else is ignored', async (t) => {
  const set = new FingerprintSet();
  const hex = 'ab'.repeat(16);
  applyAnnouncement(set, `+${hex}`);
  t.equal(set.has(Buffer.from(hex, 'hex')), true);
  applyAnnouncement(set, `*${hex}`);
  applyAnnouncement(set, `+${hex}00`);
  applyAnnouncement(set, `-${hex.toUpperCase()}`);
  t.equal(set.size, 1, 'malformed ones change nothing');
  applyAnnouncement(set, `-${hex}`);
  t.equal(set.size, 0);
});
