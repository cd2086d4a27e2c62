/**
 * A small property-test helper: `cases` runs of a check on inputs drawn from a seeded generator,
 * so that a failure names its seed and can be replayed exactly (`PROPERTY_SEED=<seed>`).
 */
export type Random = () => number;

/** mulberry32: a fast 32-bit generator; the same seed draws the same numbers. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const integerBetween = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

/** Runs `check(random, seed)` for `cases` seeds (or the one in PROPERTY_SEED); the first failure is thrown with its seed. */
export function forAll(cases: number, check: (random: Random, seed: number) => void): void {
  const fixed = process.env.PROPERTY_SEED;
  const seeds = fixed ? [Number(fixed)] : Array.from({ length: cases }, (_, index) => 1 + index * 7919);
  for (const seed of seeds) {
    try {
      check(seededRandom(seed), seed);
    } catch (error) {
      throw new Error(`property failed for PROPERTY_SEED=${seed}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}

/** forAll for checks that wait (against a database): the cases run one after another; the first failure is thrown with its seed. */
export async function forAllAsync(cases: number, check: (random: Random, seed: number) => Promise<void>): Promise<void> {
  const fixed = process.env.PROPERTY_SEED;
  const seeds = fixed ? [Number(fixed)] : Array.from({ length: cases }, (_, index) => 1 + index * 7919);
  for (const seed of seeds) {
    try {
      await check(seededRandom(seed), seed);
    } catch (error) {
      throw new Error(`property failed for PROPERTY_SEED=${seed}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}
