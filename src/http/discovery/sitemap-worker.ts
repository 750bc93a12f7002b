/**
 * A thread that makes a large snapshot's sitemap (prepared-sitemaps.ts): it reads the snapshot's
 * id and last-change columns in shared memory, writes the XML files, and sends back their bytes and
 * ETags with the buffers transferred, not copied. At 1 000 000 records that is about a second of
 * work the serving thread does not do.
 */
import { parentPort } from 'node:worker_threads'
import { strongEtag } from '../../core/etag.js'
import type { SitemapColumns } from '../../core/search/record-index.js'
import { sitemapsFromColumns } from './sitemap.js'

export type SitemapRequest = { base: string; columns: SitemapColumns }
type SitemapFile = { bytes: Uint8Array; etag: string }
export type SitemapReply =
  { ok: true; root: SitemapFile; parts: SitemapFile[] } | { ok: false; message: string }

const port = parentPort!
port.once('message', ({ base, columns }: SitemapRequest) => {
  try {
    const { root, parts } = sitemapsFromColumns(base, columns)
    const encoder = new TextEncoder()
    // TextEncoder's bytes have an ArrayBuffer of their own (Buffer.from's small ones share a pool).
    const file = (text: string): SitemapFile => {
      const bytes = encoder.encode(text)
      return { bytes, etag: strongEtag(bytes) }
    }
    const reply: SitemapReply = { ok: true, root: file(root), parts: parts.map(file) }
    port.postMessage(
      reply,
      [reply.root, ...reply.parts].map((f) => f.bytes.buffer as ArrayBuffer),
    )
  } catch (err) {
    port.postMessage({ ok: false, message: (err as Error).message } satisfies SitemapReply)
  }
})
