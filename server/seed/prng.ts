/**
 * A small deterministic PRNG (mulberry32) and the draws the demo seed needs. The same seed always
 * yields the same sequence, on every platform, so seeded data is reproducible byte for byte.
 */

/** A seeded random source; every method advances the same stream. */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** True with probability `p` (0..1). */
  chance(p: number): boolean;
  /** One element of a non-empty list, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** One value by weight from [[value, weight], …] (weights > 0, any scale). */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T;
  /** `length` characters drawn uniformly from `alphabet`. */
  chars(length: number, alphabet: string): string;
}

/** Creates a mulberry32 stream from a 32-bit unsigned seed (other numbers are truncated to 32 bits). */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick: empty list');
      return item;
    },
    weighted: (choices) => {
      let total = 0;
      for (const [, w] of choices) total += w;
      let roll = next() * total;
      for (const [value, w] of choices) {
        roll -= w;
        if (roll < 0) return value;
      }
      const last = choices[choices.length - 1];
      if (!last) throw new Error('weighted: empty list');
      return last[0];
    },
    chars: (length, alphabet) => {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)] ?? '';
      return out;
    },
  };
  return rng;
}
