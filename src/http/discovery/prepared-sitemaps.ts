/**
 * Each snapshot's sitemap, made before the snapshot is served (LiveRecords.prepareWith), from its
 * columns: in a thread of its own for a large snapshot (sitemap-worker.ts), here for a small one,
 * where a thread would cost more than the work (IN_PROCESS_MAX, as for a build). A request only sends finished
 * bytes. Without preparation (a snapshot swapped in before the routes registered), the first request
 * makes it the same way, never on the serving thread for a large one.
 */
import { IN_PROCESS_MAX, startModuleThread } from '../../core/snapshots/build-thread.js'
import type { RecordIndex } from '../../core/search/record-index.js'
import { Representation } from '../pages/representation.js'
import { sitemapsFromColumns } from './sitemap.js'
import type { SitemapReply, SitemapRequest } from './sitemap-worker.js'

const XML_TYPE = 'application/xml; charset=utf-8'

/** `/sitemap.xml`, and the parts it lists when it is an index (parts[0] is `/sitemaps/1.xml`). */
export type PreparedSitemaps = { root: Representation; parts: Representation[] }

const WORKER = new URL(
  import.meta.url.endsWith('.js') ? './sitemap-worker.js' : './sitemap-worker.ts',
  import.meta.url,
)

export class SnapshotSitemaps {
  readonly #made = new WeakMap<RecordIndex, Promise<PreparedSitemaps>>()
  readonly #ready = new WeakMap<RecordIndex, PreparedSitemaps>()

  /**
   * `base`: the public base URL (a sitemap's addresses are absolute). `inThreadAbove`: the records
   * above which the sitemap is made in a thread (tests lower it).
   */
  constructor(
    private readonly base: string,
    private readonly inThreadAbove: number = IN_PROCESS_MAX.records,
  ) {}

  /** The snapshot's sitemap when it is made; undefined until then. */
  ready(index: RecordIndex): PreparedSitemaps | undefined {
    return this.#ready.get(index)
  }

  /** Makes the snapshot's sitemap, once; a failure is not kept, so the next call tries again. */
  prepare(index: RecordIndex): Promise<PreparedSitemaps> {
    let made = this.#made.get(index)
    if (made === undefined) {
      made = (index.size <= this.inThreadAbove ? this.#here(index) : this.#inThread(index)).then(
        (sitemaps) => {
          this.#ready.set(index, sitemaps)
          return sitemaps
        },
      )
      this.#made.set(index, made)
      made.catch(() => this.#made.delete(index))
    }
    return made
  }

  async #here(index: RecordIndex): Promise<PreparedSitemaps> {
    const { root, parts } = sitemapsFromColumns(this.base, index.sitemapColumns)
    return {
      root: new Representation(root, XML_TYPE),
      parts: parts.map((part) => new Representation(part, XML_TYPE)),
    }
  }

  async #inThread(index: RecordIndex): Promise<PreparedSitemaps> {
    const worker = startModuleThread(WORKER)
    try {
      const reply = await new Promise<SitemapReply>((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
        worker.once('exit', (code) => reject(new Error(`sitemap: its thread stopped (exit code ${code})`)))
        worker.postMessage({ base: this.base, columns: index.sitemapColumns } satisfies SitemapRequest)
      })
      if (!reply.ok) throw new Error(reply.message)
      const rep = ({ bytes, etag }: { bytes: Uint8Array; etag: string }) =>
        new Representation(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), XML_TYPE, etag)
      return { root: rep(reply.root), parts: reply.parts.map(rep) }
    } finally {
      await worker.terminate()
    }
  }
}
