/**
 * An immutable, searchable snapshot of the records. Built once per load; a reload builds a new one
 * and swaps it in, so a request always reads one consistent snapshot.
 */
import { createHash } from 'node:crypto'
import { strongEtag } from '../etag.js'
import { KINDS, type Fact, type Kind } from '../records/record.js'
import type { RecordBatch } from '../records/source.js'
import { TextIndex, type IndexedText } from './text-index.js'
import { significantWords, tokenize } from './tokenize.js'

/** A record with its pre-serialised JSON: responses are assembled from these pieces, never re-stringified. */
export type IndexedRecord = {
  readonly record: Fact
  /** `JSON.stringify(record)`, computed once at load. */
  readonly json: string
  /** Strong ETag of `json`, quoted. */
  readonly etag: string
}

/** A search, normalised: build it with `toSearchQuery`. */
export type SearchQuery = {
  /** Significant folded words, all of which must be present; empty means no text filter. */
  words: readonly string[]
  kind?: Kind
  /** The only region the API knows is "france" (records whose regions hold "France"). */
  region?: 'france'
  /** Page size; the HTTP layer allows 1..50. */
  limit: number
  offset: number
}

export type SearchPage = { total: number; results: readonly IndexedRecord[] }

/** Normalises user input: `q` becomes its significant words, so "L'Autoroute" and "autoroute" are one search. */
export function toSearchQuery(input: { q?: string; kind?: Kind; region?: 'france'; limit: number; offset: number }): SearchQuery {
  return { words: input.q === undefined ? [] : significantWords(input.q), kind: input.kind, region: input.region, limit: input.limit, offset: input.offset }
}

/** A key equal for two queries exactly when they give the same page of a snapshot (for ETags and caches). */
export function searchKey(query: SearchQuery): string {
  return `${query.words.join(' ')}|${query.kind ?? ''}|${query.region ?? ''}|${query.limit}|${query.offset}`
}


const collator = new Intl.Collator('fr')
const compareIds = (a: IndexedRecord, b: IndexedRecord) => (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0)

/** Kind in the spec's order, then title in French collation, then id: the order of a listing without q. */
function compareListing(a: IndexedRecord, b: IndexedRecord): number {
  return (
    KINDS.indexOf(a.record.kind) - KINDS.indexOf(b.record.kind) ||
    collator.compare(a.record.title, b.record.title) ||
    compareIds(a, b)
  )
}

export class RecordIndex {
  /** Every record, in listing order. */
  readonly all: readonly IndexedRecord[]
  /** Content hash of the snapshot: equal records give equal versions on every replica. */
  readonly version: string
  /** When the snapshot was published (RFC 3339). */
  readonly publishedAt: string
  readonly countsByKind: Readonly<Record<Kind, number>>
  readonly #byId: ReadonlyMap<string, IndexedRecord>
  readonly #text: TextIndex
  /** Position of each record (by listing position) in id order: the last tie-break of a text search. */
  readonly #idRank: Uint32Array
  readonly #isFrance: readonly boolean[]
  /** Listings without q, per filter combination; built on first use and kept for the snapshot's life. */
  readonly #listings = new Map<string, readonly IndexedRecord[]>()

  constructor(batch: RecordBatch) {
    const entries = batch.records.map((record): IndexedRecord => {
      const json = JSON.stringify(record)
      return { record, json, etag: strongEtag(json) }
    })
    this.all = entries.sort(compareListing)
    this.#byId = new Map(this.all.map((e) => [e.record.id, e]))
    this.#isFrance = this.all.map((e) => e.record.regions.includes('France'))
    this.countsByKind = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>
    for (const e of this.all) (this.countsByKind as Record<Kind, number>)[e.record.kind]++
    const hash = createHash('sha256')
    for (const e of this.all) hash.update(e.json).update('\n')
    this.version = hash.digest('hex').slice(0, 16)
    this.publishedAt = batch.publishedAt ?? new Date().toISOString()
    this.#text = new TextIndex(this.all.map((e) => toIndexedText(e.record)), tokenize)
    this.#idRank = new Uint32Array(this.all.length)
    this.all
      .map((_, n) => n)
      .sort((a, b) => compareIds(this.all[a]!, this.all[b]!))
      .forEach((n, rank) => (this.#idRank[n] = rank))
  }

  get size(): number {
    return this.all.length
  }

  get(id: string): IndexedRecord | undefined {
    return this.#byId.get(id)
  }

  search(query: SearchQuery): SearchPage {
    if (query.words.length === 0) {
      const listing = this.#listing(query)
      return { total: listing.length, results: listing.slice(query.offset, query.offset + query.limit) }
    }
    // Relevance: more query words in the title first ("title matches above text matches"), then BM25, then id.
    const hits = this.#text.search(query.words, (n) => this.#keep(n, query), this.#idRank, query.offset, query.limit)
    return { total: hits.total, results: hits.docs.map((n) => this.all[n]!) }
  }

  #keep(n: number, query: SearchQuery): boolean {
    const entry = this.all[n]!
    return (query.kind === undefined || entry.record.kind === query.kind) && (query.region === undefined || this.#isFrance[n]!)
  }

  #listing(query: SearchQuery): readonly IndexedRecord[] {
    const key = `${query.kind ?? ''}|${query.region ?? ''}`
    let listing = this.#listings.get(key)
    if (listing === undefined) {
      listing = this.all.filter((_, n) => this.#keep(n, query))
      this.#listings.set(key, listing)
    }
    return listing
  }
}

/** What is searched: the title, and as body the text, description and references (source labels, bibliography). */
function toIndexedText(record: Fact): IndexedText {
  const references = [...record.sources.map((s) => s.label), ...(record.bibliography ?? [])]
  return { title: record.title, body: [record.text, record.description ?? '', ...references].join('\n') }
}
