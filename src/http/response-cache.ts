/**
 * Finished search responses, keyed by the request target, for one snapshot. A repeated search
 * (the common case: the same popular queries, pages re-read) costs a map lookup instead of
 * parsing, validation, index work and assembly. A reload builds a new snapshot, which starts with
 * an empty cache, so a cached answer can never outlive the records it was built from.
 */
import { LRUCache } from 'lru-cache'
import type { RecordIndex } from '../search/record-index.js'

export type CachedResponse = { body: Buffer; etag: string }

/** Bytes of response bodies kept per snapshot; a typical search answer is 2–20 KB. */
const MAX_CACHED_BYTES = 32 * 1024 * 1024

export class ResponseCache {
  readonly #bySnapshot = new WeakMap<RecordIndex, LRUCache<string, CachedResponse>>()

  constructor(private readonly maxBytes = MAX_CACHED_BYTES) {}

  get(index: RecordIndex, key: string): CachedResponse | undefined {
    return this.#bySnapshot.get(index)?.get(key)
  }

  set(index: RecordIndex, key: string, value: CachedResponse): void {
    let cache = this.#bySnapshot.get(index)
    if (cache === undefined) {
      cache = new LRUCache<string, CachedResponse>({ maxSize: this.maxBytes, sizeCalculation: (v, k) => v.body.length + k.length })
      this.#bySnapshot.set(index, cache)
    }
    cache.set(key, value)
  }
}
