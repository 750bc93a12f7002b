/**
 * Seeded pseudo-random numbers for the corpus generator.
 *
 * Why sfc32 rather than Math.random or mulberry32: Math.random cannot be seeded, so it cannot give a
 * byte-identical corpus twice. mulberry32 is shorter still, but its whole state is one 32-bit word:
 * it has only 2^32 distinct streams and a period of 2^32, which is tight once a million records each
 * draw a few hundred numbers. sfc32 (Chris Doty-Humphrey's "small fast counting" generator) keeps
 * 128 bits of state, passes PractRand and BigCrush, and is four 32-bit additions, shifts and xors —
 * fast in V8 and easy to read. Seeds are strings hashed with cyrb128 (a small 128-bit string hash).
 */

/** 128 bits of generator state or of a hashed seed. */
export type State128 = readonly [number, number, number, number]

/** A stream of numbers; every helper draws from the same underlying generator. */
export type Rng = {
  /** Uniform in [0, 1). */
  next(): number
  /** Uniform integer in [0, n). */
  int(n: number): number
  /** Uniform integer in [min, max]. */
  between(min: number, max: number): number
  /** True with probability p. */
  chance(p: number): boolean
  /** One element, uniformly; the array must not be empty. */
  pick<T>(items: readonly T[]): T
}

/** cyrb128: hashes a string to 128 bits, so that any text can be a seed ("1", "bench-2026"). */
export function hashSeed(seed: string): State128 {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  h1 ^= h2 ^ h3 ^ h4
  h2 ^= h1
  h3 ^= h1
  h4 ^= h1
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0]
}

/** The sfc32 generator: returns a function giving uniform 32-bit unsigned integers. */
export function sfc32([s0, s1, s2, s3]: State128): () => number {
  let a = s0 | 0,
    b = s1 | 0,
    c = s2 | 0,
    d = s3 | 0
  return () => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
}

/**
 * The stream of record number `n`: the seed's state with `n` mixed in, warmed up so that nearby
 * numbers give unrelated streams. One stream per record makes record `n` depend only on the seed
 * and `n`, so a corpus of 1 000 records is the first 1 000 lines of a corpus of 1 000 000.
 */
export function recordRng(seed: State128, n: number): Rng {
  const hi = Math.floor(n / 2 ** 32) >>> 0
  const next32 = sfc32([seed[0] ^ (n >>> 0), seed[1] ^ hi, seed[2], seed[3]])
  for (let i = 0; i < 12; i++) next32()
  return createRng(next32)
}

/** Wraps a 32-bit generator with the helpers the composer uses. */
export function createRng(next32: () => number): Rng {
  const next = () => next32() / 2 ** 32
  const int = (n: number) => Math.floor(next() * n)
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('corpus: cannot pick from an empty pool')
      return items[int(items.length)]!
    },
  }
}
