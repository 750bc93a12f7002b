/**
 * The storage half of a served snapshot: its records' bytes and ETags, their columns and orders,
 * look-ups by id, url and id prefix, the listing by kind and region, and the download. Immutable
 * once built; it holds bytes and numbers, no object per record: each record is its JSON in one
 * shared buffer, and a record object is parsed only when an adapter asks for one. The search over
 * it is searcher.ts; record-index.ts puts the two together.
 */
import { KINDS, type Kind } from '../records/record.js'
import type { SnapshotInfo } from '../records/source.js'
import { lastChangeText } from '../records/last-change.js'
import type { IndexQuery } from './index-query.js'
import { IndexedRecord } from './indexed-record.js'
import { previousRecords, type PreviousRecords } from './previous-records.js'
import { ID_PREFIXES, idKey, urlKey } from './snapshot-builder.js'
import { ETAG_LENGTH, type SnapshotData } from './snapshot-data.js'

/** What a sitemap is made from: each document's id and last change (RecordStore.sitemapColumns). */
export type SitemapColumns = Pick<
  SnapshotData,
  'count' | 'idPrefix' | 'idHigh' | 'idLow' | 'lastChange' | 'lastChangeDate'
>

const asBuffer = (arena: Uint8Array) => Buffer.from(arena.buffer, arena.byteOffset, arena.byteLength)

/**
 * `data` holding its arenas itself: the previous snapshot's that it still uses, then its own, by
 * arena number, with `inherited` 0, numbered consecutively over the arenas some record uses
 * (`recordArena` is a new column when they are renumbered), so that an arena no record uses any
 * more — emptied by changes, or compacted — is let go. A new value: `data` is left as it was given.
 * Without `previous`, inherited arenas stay unresolved: a build thread preparing answers reads no
 * record.
 */
export function holdingItsArenas(data: SnapshotData, previous: readonly Buffer[] | undefined): SnapshotData {
  if (data.inherited > 0 && previous === undefined) return data
  const own = data.arenas.map(asBuffer)
  const all = [...(previous ?? []).slice(0, data.inherited), ...own]
  const used = new Uint8Array(all.length)
  for (let doc = 0; doc < data.count; doc++) used[data.recordArena[doc]!] = 1
  const number = new Uint16Array(all.length)
  const held: Buffer[] = []
  all.forEach((arena, k) => {
    if (used[k] === 1) number[k] = held.push(arena) - 1
  })
  const recordArena =
    held.length < all.length ? data.recordArena.map((arena) => number[arena]!) : data.recordArena
  return { ...data, arenas: held, inherited: 0, recordArena }
}

/** The listing order of the records whose regions hold France (still sorted by kind first). */
export function franceOrder(data: SnapshotData): Uint32Array {
  const { order, france } = data
  return order.filter((doc) => france[doc] === 1)
}

export class RecordStore {
  /** Content hash of the snapshot: equal records give equal versions on every replica. */
  readonly version: string
  /** When the snapshot was published (RFC 3339). */
  readonly publishedAt: string
  /** The published snapshot these records are, when the source numbers them (PostgreSQL). */
  readonly snapshot: SnapshotInfo | undefined
  readonly countsByKind: Readonly<Record<Kind, number>>
  readonly #data: SnapshotData
  readonly #arenas: Buffer[]
  /** The region's listing, when the snapshot was not handed one (see listing). */
  #franceOrder: Uint32Array | undefined

  /**
   * `previous`: the snapshot a reload built this one beside, whose arenas hold this one's unchanged
   * records (`data.inherited`); required then. Arenas no record uses any more are let go here
   * (holdingItsArenas), in a copy: `data` itself is not changed.
   */
  constructor(data: SnapshotData, previous?: RecordStore) {
    this.#data = holdingItsArenas(data, previous === undefined ? undefined : previous.#arenas)
    // By arena number; an inherited arena left unresolved (no `previous`) has no buffer.
    this.#arenas = [...(Array(this.#data.inherited) as Buffer[]), ...this.#data.arenas.map(asBuffer)]
    this.version = data.version
    this.publishedAt = data.publishedAt
    this.snapshot = data.snapshot
    this.countsByKind = Object.fromEntries(KINDS.map((k, i) => [k, data.countsByKind[i] ?? 0])) as Record<
      Kind,
      number
    >
  }

  /** What a reload's build reads of this snapshot to keep its unchanged records where they are. */
  previousRecords(): PreviousRecords {
    return previousRecords(
      this.#data,
      this.#arenas.map((arena) => arena.length),
    )
  }

  /** Bytes of the arenas this snapshot holds, and how many (for tests and docs/scale.md). */
  get arenaBytes(): { arenas: number; bytes: number } {
    return { arenas: this.#arenas.length, bytes: this.#arenas.reduce((n, arena) => n + arena.length, 0) }
  }

  /** Bytes of the arenas this snapshot holds in the same memory as `other` (a reload's, shared with the snapshot it replaced). */
  sharedBytesWith(other: RecordStore): number {
    const theirs = new Set(other.#arenas.map((arena) => arena.buffer))
    return this.#arenas.reduce((n, arena) => n + (theirs.has(arena.buffer) ? arena.length : 0), 0)
  }

  get size(): number {
    return this.#data.count
  }

  /** The document numbers of the records of one kind, in snapshot order, read without parsing a record. */
  docsOfKind(kind: Kind): number[] {
    const wanted = KINDS.indexOf(kind)
    const { kinds, count } = this.#data
    const docs: number[] = []
    for (let doc = 0; doc < count; doc++) if (kinds[doc] === wanted) docs.push(doc)
    return docs
  }

  /** Record `doc` (a document number). */
  entry(doc: number): IndexedRecord {
    const { recordArena, recordStart, recordLength, etags } = this.#data
    const arena = this.#arenas[recordArena[doc]!]
    if (arena === undefined)
      throw new Error(`snapshot: record ${doc} is held by the previous snapshot, which was not given`)
    const start = recordStart[doc]!
    return new IndexedRecord(
      doc,
      arena.subarray(start, start + recordLength[doc]!),
      `"${this.#etagBytes(doc, etags)}"`,
    )
  }

  /** Document `doc`'s JSON as served (a view into its arena), without making its entry. */
  bytesOf(doc: number): Buffer {
    const { recordArena, recordStart, recordLength } = this.#data
    const arena = this.#arenas[recordArena[doc]!]
    if (arena === undefined)
      throw new Error(`snapshot: record ${doc} is held by the previous snapshot, which was not given`)
    const start = recordStart[doc]!
    return arena.subarray(start, start + recordLength[doc]!)
  }

  /**
   * The documents in id order: bytewise order of the ids, since the kind prefixes are listed in that
   * order and the 16 hex digits have one length. Read-only: it is the snapshot's own column.
   */
  get docsInIdOrder(): Uint32Array {
    return this.#data.byId
  }

  /** Document `doc`'s id, made from its columns (no record parsed). */
  idOf(doc: number): string {
    const { idPrefix, idHigh, idLow } = this.#data
    return `${ID_PREFIXES[idPrefix[doc]!]!}${idHigh[doc]!.toString(16).padStart(8, '0')}${idLow[doc]!.toString(16).padStart(8, '0')}`
  }

  /** How the id of `doc` here orders against the id of `otherDoc` in `other` (negative: before). */
  compareIdWith(doc: number, other: RecordStore, otherDoc: number): number {
    const [a, b] = [this.#data, other.#data]
    return (
      a.idPrefix[doc]! - b.idPrefix[otherDoc]! ||
      a.idHigh[doc]! - b.idHigh[otherDoc]! ||
      a.idLow[doc]! - b.idLow[otherDoc]!
    )
  }

  /** Whether `doc` here and `otherDoc` in `other` are the same bytes (their ETags, SHA-256 based, are equal). */
  sameRecordAs(doc: number, other: RecordStore, otherDoc: number): boolean {
    const [a, b] = [this.#data.etags, other.#data.etags]
    for (let i = 0, x = doc * ETAG_LENGTH, y = otherDoc * ETAG_LENGTH; i < ETAG_LENGTH; i++)
      if (a[x + i] !== b[y + i]) return false
    return true
  }

  #etagBytes(doc: number, etags: Uint8Array): string {
    return Buffer.from(etags.buffer, etags.byteOffset + doc * ETAG_LENGTH, ETAG_LENGTH).toString('latin1')
  }

  get(id: string): IndexedRecord | undefined {
    const key = idKey(id)
    if (key === undefined) return undefined
    const [prefix, high, low] = key
    const { byId, idPrefix, idHigh, idLow } = this.#data
    let [from, to] = [0, byId.length]
    while (from < to) {
      const mid = (from + to) >>> 1
      const doc = byId[mid]!
      const c = idPrefix[doc]! - prefix || idHigh[doc]! - high || idLow[doc]! - low
      if (c === 0) return this.entry(doc)
      if (c < 0) from = mid + 1
      else to = mid
    }
    return undefined
  }

  /**
   * Up to `max` ids that start with `text`, in id order (for completing an id as it is typed). Ids are
   * kept sorted by kind prefix then hexadecimal value, so the ids of a prefix are one range, found by
   * binary search whatever the size of the snapshot.
   */
  idsStartingWith(text: string, max: number): string[] {
    const { byId, idPrefix, idHigh, idLow } = this.#data
    const out: string[] = []
    for (let prefix = 0; prefix < ID_PREFIXES.length && out.length < max; prefix++) {
      const name = ID_PREFIXES[prefix]!
      const hex = text.startsWith(name) ? text.slice(name.length) : name.startsWith(text) ? '' : undefined
      if (hex === undefined || !/^[0-9a-f]{0,16}$/.test(hex)) continue
      const low = hex.padEnd(16, '0')
      const [high, lowBits] = [parseInt(low.slice(0, 8), 16), parseInt(low.slice(8), 16)]
      let [from, to] = [0, byId.length]
      while (from < to) {
        const mid = (from + to) >>> 1
        const doc = byId[mid]!
        if ((idPrefix[doc]! - prefix || idHigh[doc]! - high || idLow[doc]! - lowBits) < 0) from = mid + 1
        else to = mid
      }
      for (let i = from; i < byId.length && out.length < max; i++) {
        const doc = byId[i]!
        if (idPrefix[doc] !== prefix) break
        const id = `${name}${idHigh[doc]!.toString(16).padStart(8, '0')}${idLow[doc]!.toString(16).padStart(8, '0')}`
        if (!id.startsWith(text)) break
        out.push(id)
      }
    }
    return out
  }

  /** The record whose url is `url`, if any. */
  findByUrl(url: string): IndexedRecord | undefined {
    const [high, low] = urlKey(url)
    const { byUrl, urlHigh, urlLow } = this.#data
    let from = 0
    let to = byUrl.length
    while (from < to) {
      const mid = (from + to) >>> 1
      const doc = byUrl[mid]!
      if (urlHigh[doc]! < high || (urlHigh[doc] === high && urlLow[doc]! < low)) from = mid + 1
      else to = mid
    }
    // Equal hashes sit together; the url itself decides (a hash may collide).
    for (let i = from; i < byUrl.length && urlHigh[byUrl[i]!] === high && urlLow[byUrl[i]!] === low; i++) {
      const entry = this.entry(byUrl[i]!)
      if (entry.record.url === url) return entry
    }
    return undefined
  }

  /** Up to `count` records from position `offset` of the listing (kind, title, id). */
  listed(offset: number, count: number): IndexedRecord[] {
    const { order } = this.#data
    const out: IndexedRecord[] = []
    for (let i = offset; i < Math.min(order.length, offset + count); i++) out.push(this.entry(order[i]!))
    return out
  }

  /** When record `doc` last changed, as the sitemap writes it (last-change.ts); undefined when it says no date. */
  lastChangeOf(doc: number): string | undefined {
    return lastChangeText({ time: this.#data.lastChange[doc]!, date: this.#data.lastChangeDate[doc]! })
  }

  /**
   * The columns a sitemap is made from, in shared memory: another thread reads them in place
   * (sitemap-worker.ts), so the serving thread neither builds the sitemap nor copies them.
   */
  get sitemapColumns(): SitemapColumns {
    const { count, idPrefix, idHigh, idLow, lastChange, lastChangeDate } = this.#data
    return { count, idPrefix, idHigh, idLow, lastChange, lastChangeDate }
  }

  /** Each official rule's verified_at in ms, by document; NaN for another kind or no date. Read-only. */
  get verifiedTimes(): Float64Array {
    return this.#data.verifiedAt
  }

  #ndjsonBytes: number | undefined
  /** Bytes of the snapshot as NDJSON: every record's JSON and a newline (the download's length). */
  get ndjsonBytes(): number {
    if (this.#ndjsonBytes === undefined) {
      let n = this.#data.count
      for (const length of this.#data.recordLength) n += length
      this.#ndjsonBytes = n
    }
    return this.#ndjsonBytes
  }

  /**
   * Copies records in listing order, each followed by a newline, from listing position `from` into
   * `target`, as many as fit whole (at least one: `target` must hold the first); returns the next
   * position and the bytes written. The download is streamed so, chunk by chunk, with one copy of
   * bytes and no object per record.
   */
  copyListing(from: number, target: Buffer): { next: number; bytes: number } {
    const { order, recordArena, recordStart, recordLength } = this.#data
    let at = 0
    let position = from
    for (; position < order.length; position++) {
      const doc = order[position]!
      const length = recordLength[doc]!
      if (at + length + 1 > target.length && at > 0) break
      const arena = this.#arenas[recordArena[doc]!]
      if (arena === undefined)
        throw new Error(`snapshot: record ${doc} is held by the previous snapshot, which was not given`)
      const start = recordStart[doc]!
      arena.copy(target, at, start, start + length)
      target[at + length] = 0x0a
      at += length + 1
    }
    return { next: position, bytes: at }
  }

  /** The length of the longest record, in bytes (a download chunk holds at least one). */
  get longestRecord(): number {
    let longest = 0
    for (const length of this.#data.recordLength) if (length > longest) longest = length
    return longest
  }

  /** Every record in listing order, one at a time (the whole-snapshot download). */
  *inListingOrder(): Generator<IndexedRecord> {
    for (const doc of this.#data.order) yield this.entry(doc)
  }

  /**
   * The listing of a filter: a kind is one range of the listing order, which is sorted by kind first
   * (snapshot-orders.ts), found by binary search — a view, no pass over the snapshot. The region's
   * listing is made with the snapshot (withPreparedAnswers; else once, on first use, and kept), and a
   * kind in that region is a range of it the same way.
   */
  listing(query: Pick<IndexQuery, 'kind' | 'region'>): Uint32Array {
    const listing = query.region === undefined ? this.#data.order : this.#inFrance()
    return query.kind === undefined ? listing : this.#kindRange(KINDS.indexOf(query.kind), listing)
  }

  /** The listing order of the records whose regions hold France. */
  #inFrance(): Uint32Array {
    return (this.#franceOrder ??= this.#data.franceOrder ?? franceOrder(this.#data))
  }

  /** The documents of kind number `kind` in `listing` (sorted by kind first): a view into it. */
  #kindRange(kind: number, listing: Uint32Array): Uint32Array {
    const { kinds } = this.#data
    const firstAtLeast = (k: number) => {
      let [from, to] = [0, listing.length]
      while (from < to) {
        const mid = (from + to) >>> 1
        if (kinds[listing[mid]!]! < k) from = mid + 1
        else to = mid
      }
      return from
    }
    return listing.subarray(firstAtLeast(kind), firstAtLeast(kind + 1))
  }
}
