/**
 * Rendered pages per snapshot (like the API's ResponseCache): a WeakMap keyed by the snapshot, so a
 * reload starts with an empty cache and a page can never outlive the records it was rendered from;
 * within a snapshot, a bounded LRU of pages by their normalised parameters.
 */
import { LRUCache } from 'lru-cache'
import type { RecordIndex } from '../../core/search/record-index.js'
import type { Representation } from './representation.js'

/** Bytes of rendered pages kept per snapshot; a search page is about 15 KB, a record page 5–10 KB. */
const MAX_CACHED_BYTES = 16 * 1024 * 1024

export class SnapshotPageCache {
  readonly #bySnapshot = new WeakMap<RecordIndex, LRUCache<string, Representation>>()

  constructor(private readonly maxBytes = MAX_CACHED_BYTES) {}

  /** The page `key` of `snapshot`, rendered by `render` on first use. */
  async get(
    snapshot: RecordIndex,
    key: string,
    render: () => Promise<Representation>,
  ): Promise<Representation> {
    let cache = this.#bySnapshot.get(snapshot)
    if (cache === undefined) {
      cache = new LRUCache<string, Representation>({
        maxSize: this.maxBytes,
        sizeCalculation: (page, k) => page.byteLength + k.length,
      })
      this.#bySnapshot.set(snapshot, cache)
    }
    const cached = cache.get(key)
    if (cached !== undefined) return cached
    const page = await render()
    cache.set(key, page)
    return page
  }
}
