/**
 * An immutable, searchable snapshot of the records. Built once per load; a reload builds a new one
 * and swaps it in, so a request always reads one consistent snapshot.
 */
import { createHash } from 'node:crypto'
import { strongEtag } from '../etag.js'
import { KINDS, type Fact, type Kind } from '../records/record.js'
import type { RecordBatch, SnapshotInfo } from '../records/source.js'
import { loadAliases, type AliasTable } from './aliases.js'
import { loadWordForms, type WordForms } from './forms.js'
import { interpretQuery, type Interpretation, type PlannedWord } from './interpret.js'
import { Lexicon } from './lexicon.js'
import type { Ranking } from './match.js'
import { TextIndex, type IndexedText } from './text-index.js'
import { fold, queryTokens, tokenize } from './tokenize.js'

/** A record with its pre-serialised JSON: responses are assembled from these pieces, never re-stringified. */
export type IndexedRecord = {
  readonly record: Fact
  /**
   * `JSON.stringify(record)` as UTF-8, encoded once at load: a view into the snapshot's one buffer of
   * records, so a response sends these bytes as they are (no re-encoding of a JS string per send).
   */
  readonly bytes: Buffer
  /** Strong ETag of `bytes`, quoted. */
  readonly etag: string
}

/** A search, normalised: build it with `toIndexQuery`. */
export type IndexQuery = {
  /** The text searched, as given; undefined lists records without a text filter. */
  q?: string
  kind?: Kind
  /** The only region the API knows is "france" (records whose regions hold "France"). */
  region?: 'france'
  /** Page size; the HTTP layer allows 1..50. */
  limit: number
  offset: number
}

export type SearchPage = {
  total: number
  results: readonly IndexedRecord[]
  /** How `q` was read: present whenever `q` was given (docs/api.md). */
  interpretation?: Interpretation
}

/** Search parameters as the index takes them. */
export function toIndexQuery(input: { q?: string; kind?: Kind; region?: 'france'; limit: number; offset: number }): IndexQuery {
  return { q: input.q, kind: input.kind, region: input.region, limit: input.limit, offset: input.offset }
}

/**
 * A key equal for two queries exactly when they give the same answer from a snapshot (for ETags and
 * caches). `q` is kept as typed: the answer's interpretation shows the words as typed.
 */
export function searchKey(query: IndexQuery): string {
  return JSON.stringify([query.q ?? null, query.kind ?? '', query.region ?? '', query.limit, query.offset])
}

/** What the query side reads besides the index: the word-form exceptions and the alias table. */
export type SearchVocabulary = { forms: WordForms; aliases: AliasTable }
let bundledVocabulary: SearchVocabulary | undefined
/** The bundled data/search files, read once per process. */
export const bundledSearchVocabulary = (): SearchVocabulary => (bundledVocabulary ??= { forms: loadWordForms(), aliases: loadAliases() })

/** Relaxed queries shown at most, when nothing matches. */
const MAX_RELAXED = 5
/** Relaxed queries are tried for queries of at most this many required words (each is one more search). */
const MAX_RELAXED_WORDS = 8


const collator = new Intl.Collator('fr')
const compareIds = (a: IndexedRecord, b: IndexedRecord) => (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0)

/** Kind in the spec's order, then title in French collation, then id: the order of a listing without q. */
function compareRecords(a: Fact, b: Fact): number {
  return KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || collator.compare(a.title, b.title) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

export class RecordIndex {
  /** Every record, in listing order. */
  readonly all: readonly IndexedRecord[]
  /** Content hash of the snapshot: equal records give equal versions on every replica. */
  readonly version: string
  /** When the snapshot was published (RFC 3339). */
  readonly publishedAt: string
  /** The published snapshot these records are, when the source numbers them (PostgreSQL). */
  readonly snapshot: SnapshotInfo | undefined
  readonly countsByKind: Readonly<Record<Kind, number>>
  readonly #byId: ReadonlyMap<string, IndexedRecord>
  readonly #text: TextIndex
  readonly #lexicon: Lexicon
  readonly #aliases: AliasTable
  /** Ranking inputs per record (by listing position): provenance class, and position in id order for ties. */
  readonly #ranking: Ranking
  /** Per record (listing position): its kind's position in KINDS, and 1 when its regions hold France — typed, so filters touch no record object. */
  readonly #kindOf: Uint8Array
  readonly #isFrance: Uint8Array
  /** Listings without q, per filter combination; built on first use and kept for the snapshot's life. */
  readonly #listings = new Map<string, readonly IndexedRecord[]>()
  /** Indexed words as the records write them, found on first use. */
  readonly #displayed = new Map<number, string>()

  constructor(batch: RecordBatch, vocabulary: SearchVocabulary = bundledSearchVocabulary()) {
    const sorted = batch.records.map((record) => ({ record, json: JSON.stringify(record) })).sort((a, b) => compareRecords(a.record, b.record))
    // One buffer holds every record's bytes, in listing order: one allocation, and views into it.
    const arena = Buffer.allocUnsafeSlow(sorted.reduce((n, e) => n + Buffer.byteLength(e.json), 0))
    let at = 0
    this.all = sorted.map(({ record, json }): IndexedRecord => {
      const start = at
      at += arena.write(json, at)
      const bytes = arena.subarray(start, at)
      return { record, bytes, etag: strongEtag(bytes) }
    })
    this.#byId = new Map(this.all.map((e) => [e.record.id, e]))
    this.#kindOf = Uint8Array.from(this.all, (e) => KINDS.indexOf(e.record.kind))
    this.#isFrance = Uint8Array.from(this.all, (e) => (e.record.regions.includes('France') ? 1 : 0))
    this.countsByKind = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>
    for (const e of this.all) (this.countsByKind as Record<Kind, number>)[e.record.kind]++
    const hash = createHash('sha256')
    for (const e of this.all) hash.update(e.bytes).update('\n')
    this.version = hash.digest('hex').slice(0, 16)
    this.publishedAt = batch.publishedAt ?? new Date().toISOString()
    this.snapshot = batch.snapshot
    this.#text = new TextIndex(this.all.map((e) => toIndexedText(e.record)), tokenize)
    this.#lexicon = new Lexicon(this.#text, vocabulary.forms)
    this.#aliases = vocabulary.aliases
    const tieRank = new Uint32Array(this.all.length)
    this.all
      .map((_, n) => n)
      .sort((a, b) => compareIds(this.all[a]!, this.all[b]!))
      .forEach((n, rank) => (tieRank[n] = rank))
    this.#ranking = { tieRank, rankClass: Uint8Array.from(this.all, (e) => rankClass(e.record)) }
  }

  get size(): number {
    return this.all.length
  }

  get(id: string): IndexedRecord | undefined {
    return this.#byId.get(id)
  }

  search(query: IndexQuery): SearchPage {
    if (query.q === undefined || queryTokens(query.q).length === 0) {
      const listing = this.#listing(query)
      const interpretation = query.q === undefined ? undefined : { words: [], ignored: [], corrected: [], expanded: [], relaxed: [] }
      return { total: listing.length, results: listing.slice(query.offset, query.offset + query.limit), interpretation }
    }
    const plan = interpretQuery(query.q, { lexicon: this.#lexicon, aliases: this.#aliases, display: (term) => this.#display(term) })
    const hits = this.#match(plan.words, query, false)
    if (hits.total === 0) plan.interpretation.relaxed = this.#relaxed(plan.words, query)
    return { total: hits.total, results: hits.docs.map((n) => this.all[n]!), interpretation: plan.interpretation }
  }

  // Relevance: more required words in the title first ("title matches above text matches"), then
  // reference content before offers, tools and staff (rankClass), then BM25, then id.
  #match(words: readonly PlannedWord[], query: IndexQuery, countOnly: boolean): { total: number; docs: number[] } {
    const groups = words.map((w) => w.group)
    return this.#text.search({ groups, keep: this.#filter(query), countOnly, offset: query.offset, limit: query.limit }, this.#ranking)
  }

  /** The query minus one word, for each word whose removal finds something: fewest matches (most specific) first. */
  #relaxed(words: readonly PlannedWord[], query: IndexQuery): Interpretation['relaxed'] {
    if (words.length < 2 || words.length > MAX_RELAXED_WORDS) return []
    const relaxed = words.map((without, i) => {
      const rest = words.filter((_, j) => j !== i)
      return { without: without.shown, q: rest.map((w) => w.shown).join(' '), total: this.#match(rest, query, true).total }
    })
    return relaxed
      .filter((r) => r.total > 0)
      .sort((a, b) => a.total - b.total)
      .slice(0, MAX_RELAXED)
  }

  /**
   * An indexed word as its first record writes it ("vehicule" → "véhicule"), for the interpretation:
   * preferably a spelling that is the indexed word itself (the singular "passage", not "passages").
   */
  #display(term: number): string {
    let shown = this.#displayed.get(term)
    if (shown === undefined) {
      const word = this.#text.term(term)
      let typed: string | undefined
      for (const doc of this.#text.firstDocuments(term, 8)) {
        const { title, body } = toIndexedText(this.all[doc]!.record)
        const spellings = [...queryTokens(title), ...queryTokens(body)].filter((t) => t.word === word).map((t) => t.typed)
        typed = spellings.find((t) => fold(t) === word) ?? typed ?? spellings[0]
        if (typed !== undefined && fold(typed) === word) break
      }
      shown = typed === undefined || typed === typed.toUpperCase() ? (typed ?? word) : typed.toLocaleLowerCase('fr')
      this.#displayed.set(term, shown)
    }
    return shown
  }

  /** The kind and region filters as a test on listing positions; undefined when there is none. */
  #filter(query: IndexQuery): ((n: number) => boolean) | undefined {
    const kindOf = this.#kindOf
    const isFrance = this.#isFrance
    const kind = query.kind === undefined ? -1 : KINDS.indexOf(query.kind)
    if (kind < 0 && query.region === undefined) return undefined
    if (query.region === undefined) return (n) => kindOf[n] === kind
    return kind < 0 ? (n) => isFrance[n] === 1 : (n) => kindOf[n] === kind && isFrance[n] === 1
  }

  #listing(query: IndexQuery): readonly IndexedRecord[] {
    const key = `${query.kind ?? ''}|${query.region ?? ''}`
    let listing = this.#listings.get(key)
    if (listing === undefined) {
      const keep = this.#filter(query)
      listing = keep === undefined ? this.all : this.all.filter((_, n) => keep(n))
      this.#listings.set(key, listing)
    }
    return listing
  }
}

/**
 * Among records that match equally well (as many query words in their title), the reference content
 * — official rules, method, lessons, articles, the site's pages — comes before the school's own
 * offers, tools, staff and organization; BM25 orders each class. So a learner asking about the
 * blood-alcohol limit meets the rule before the estimator. Five orders were measured on the
 * relevance table (docs/search.md "Ranking"); this one ranks best among those that keep rules above tools.
 */
const PROMOTION: ReadonlySet<Kind> = new Set(['offer', 'tool', 'person', 'organization'])
const rankClass = (record: Fact): number => (PROMOTION.has(record.kind) ? 1 : 0)

/** What is searched: the title, and as body the text, description and references (source labels, bibliography). */
export function toIndexedText(record: Fact): IndexedText {
  const references = [...record.sources.map((s) => s.label), ...(record.bibliography ?? [])]
  return { title: record.title, body: [record.text, record.description ?? '', ...references].join('\n') }
}
