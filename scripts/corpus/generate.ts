/**
 * The corpus generator: a lazy sequence of NDJSON lines, one valid record per line. Nothing is kept
 * but the pools and the last few titles (for `related`), so memory does not grow with the count.
 *
 * Determinism: for a given sample file, seed and count, the output is byte-identical; record `n`
 * depends only on the sample, the seed and `n`, so a smaller corpus is a prefix of a larger one.
 */
import type { Fact, Kind } from '../../src/core/records/record.js'
import { composeRecord, pickKind, type RecentLink } from './compose.js'
import { buildPools, type Pools } from './pools.js'
import { hashSeed, recordRng, type State128 } from './prng.js'
import { recordId } from './record-id.js'

/** Options of a generated corpus. */
export type CorpusOptions = {
  /** Validated sample records whose words, sentences and field rates are recombined. */
  sample: readonly Fact[]
  /** Any text; the same seed gives the same corpus. */
  seed: string
}

/** How many recent records `related` links may point to. */
const RECENT_LINKS = 32

export class CorpusGenerator {
  readonly pools: Pools
  readonly #recordSeed: State128
  readonly #idKey: State128

  constructor(options: CorpusOptions) {
    this.pools = buildPools(options.sample)
    // Two independent keys, so ids do not correlate with the contents drawn from the record stream.
    this.#recordSeed = hashSeed(`records:${options.seed}`)
    this.#idKey = hashSeed(`ids:${options.seed}`)
  }

  /** The kind of record `n`: drawn first from its stream, so it is known without composing the record. */
  kindOf(n: number): Kind {
    return pickKind(recordRng(this.#recordSeed, n), this.pools)
  }

  /** Records 0 … count-1, composed lazily. */
  *records(count: number): Generator<Fact> {
    const recent: RecentLink[] = []
    for (let n = 0; n < count; n++) {
      const rng = recordRng(this.#recordSeed, n)
      const kind = pickKind(rng, this.pools)
      const record = composeRecord(n, recordId(kind, n, this.#idKey), kind, rng, this.pools, recent)
      if (recent.length === RECENT_LINKS) recent.shift()
      recent.push({ title: record.title, url: record.url })
      yield record
    }
  }

  /** The NDJSON lines of records 0 … count-1, each ending with "\n". */
  *lines(count: number): Generator<string> {
    for (const record of this.records(count)) yield `${JSON.stringify(record)}\n`
  }
}
