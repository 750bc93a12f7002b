/**
 * Finished search responses, keyed by the request target, for one snapshot. A repeated search
 * (the common case: the same popular queries, pages re-read) costs a map lookup instead of
 * parsing, validation, index work and assembly. A reload builds a new snapshot, which starts with
 * an empty cache, so a cached answer can never outlive the records it was built from.
 *
 * The bound is on memory really held, not on body bytes alone: a small answer (a zero-result search
 * is ~50 bytes) costs far more in bookkeeping than in body, and a body sliced from Node's shared 8 KiB
 * buffer pool would keep the whole slab alive. So each body is copied into memory of its own, and
 * each entry counts its key, its ETag and a measured per-entry overhead (test: response-cache.test.ts).
 * Compressed variants are made later, on demand; each entry reserves room for them up front (JSON
 * compresses to well under a third with either Brotli or gzip, so both fit in 3/4 of the body).
 */
import { LRUCache } from 'lru-cache'
import type { RecordIndex } from '../core/search/record-index.js'
import { PreparedBody, ownCopy } from './prepared-body.js'

/** Memory held per snapshot by default; a typical search answer is 2–20 KB. */
const DEFAULT_MAX_CACHED_BYTES = 32 * 1024 * 1024
/**
 * Bytes an entry holds besides its body, key and ETag characters: the entry and value objects, the
 * Buffer and its own ArrayBuffer, the LRU's node. Measured at ~540 on Node 20 (200 000 entries,
 * heap + external after GC); rounded up.
 */
const ENTRY_OVERHEAD_BYTES = 640
/** Room reserved for the Brotli and gzip variants of a body, as a share of its size. */
const VARIANTS_SHARE = 0.75

export class ResponseCache {
  readonly #bySnapshot = new WeakMap<RecordIndex, LRUCache<string, PreparedBody>>()

  constructor(private readonly maxBytes = DEFAULT_MAX_CACHED_BYTES) {}

  get(index: RecordIndex, key: string): PreparedBody | undefined {
    return this.#bySnapshot.get(index)?.get(key)
  }

  /** Stores a copy of `value` (a body of its own) and returns it. */
  set(index: RecordIndex, key: string, value: PreparedBody): PreparedBody {
    let cache = this.#bySnapshot.get(index)
    if (cache === undefined) {
      cache = new LRUCache<string, PreparedBody>({
        maxSize: this.maxBytes,
        sizeCalculation: (v, k) => entrySize(k, v),
      })
      this.#bySnapshot.set(index, cache)
    }
    const own = new PreparedBody(ownCopy(value.body), value.type, value.effort, value.etag)
    cache.set(key, own)
    return own
  }

  /** Bytes counted for a snapshot's entries (for tests and metrics). */
  heldBytes(index: RecordIndex): number {
    return this.#bySnapshot.get(index)?.calculatedSize ?? 0
  }
}

const entrySize = (key: string, value: PreparedBody) =>
  ENTRY_OVERHEAD_BYTES + key.length + value.etag.length + Math.ceil(value.body.length * (1 + VARIANTS_SHARE))
