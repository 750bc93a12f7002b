/**
 * An immutable, searchable snapshot of the records. Built once per load (snapshot-builder.ts, in a
 * worker thread for the service); a reload builds a new one and swaps it in, so a request always
 * reads one consistent snapshot. It holds bytes and numbers, no object per record: each record is
 * its JSON in one shared buffer, and a record object is parsed only when an adapter asks for one.
 */
import { KINDS, type Fact, type Kind } from '../records/record.js'
import type { RecordBatch, SnapshotInfo } from '../records/source.js'
import { loadAliases, type AliasTable } from './aliases.js'
import { loadWordForms, type WordForms } from './forms.js'
import { interpretQuery, type Interpretation, type PlannedWord } from './interpret.js'
import { Lexicon } from './lexicon.js'
import type { MatchMode } from './match-mode.js'
import {
  PREPARE_DEFAULTS,
  PreparedAnswers,
  PreparedAnswersWriter,
  NO_PREPARED_ANSWERS,
  filterKey,
  groupKey,
  type PrepareOptions,
  type PreparedAnswersData,
} from './prepared-answers.js'
import type { Ranking } from './match.js'
import { ID_PREFIXES, SnapshotBuilder, idKey, searchedText, urlKey } from './snapshot-builder.js'
import { previousRecords, type PreviousRecords } from './previous-records.js'
import { ETAG_LENGTH, type LexiconData, type SnapshotData } from './snapshot-data.js'
import { lastChangeText } from '../records/last-change.js'
import { TextIndex, prebuiltDense } from './text-index.js'
import { fold, queryTokens } from './tokenize.js'

/** What a sitemap is made from: each document's id and last change (RecordIndex.sitemapColumns). */
export type SitemapColumns = Pick<
  SnapshotData,
  'count' | 'idPrefix' | 'idHigh' | 'idLow' | 'lastChange' | 'lastChangeDate'
>

/** One record of a snapshot: its bytes as served and its ETag; its object parsed on first use. */
export class IndexedRecord {
  #record: Fact | undefined
  constructor(
    /** Its number in the snapshot. */
    readonly doc: number,
    /** Its JSON as served, UTF-8: a view into the snapshot's buffer, sent as it is. */
    readonly bytes: Buffer,
    /** Strong ETag of `bytes`, quoted. */
    readonly etag: string,
  ) {}

  get record(): Fact {
    return (this.#record ??= JSON.parse(this.bytes.toString('utf8')) as Fact)
  }
}

/** A search, normalised: build it with `toIndexQuery`. */
export type IndexQuery = {
  /** The text searched, as given; undefined lists records without a text filter. */
  q?: string
  kind?: Kind
  /** The only region the API knows is "france" (records whose regions hold "France"). */
  region?: 'france'
  /**
   * `all` (the contract's rule): every required word present. `best`: when no record holds every
   * word, the records holding the most of them, ranked (best-match.ts). Default `all`.
   */
  match?: MatchMode
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
export function toIndexQuery(input: {
  q?: string
  kind?: Kind
  region?: 'france'
  match?: MatchMode
  limit: number
  offset: number
}): IndexQuery {
  return {
    q: input.q,
    kind: input.kind,
    region: input.region,
    match: input.match ?? 'all',
    limit: input.limit,
    offset: input.offset,
  }
}

/**
 * A key equal for two queries exactly when they give the same answer from a snapshot (for ETags and
 * caches). `q` is kept as typed: the answer's interpretation shows the words as typed.
 */
export function searchKey(query: IndexQuery): string {
  return JSON.stringify([
    query.q ?? null,
    query.kind ?? '',
    query.region ?? '',
    query.match ?? 'all',
    query.limit,
    query.offset,
  ])
}

/** What the query side reads besides the index: the word-form exceptions and the alias table. */
export type SearchVocabulary = { forms: WordForms; aliases: AliasTable }
let bundledVocabulary: SearchVocabulary | undefined
/** The bundled data/search files, read once per process. */
const bundledSearchVocabulary = (): SearchVocabulary =>
  (bundledVocabulary ??= { forms: loadWordForms(), aliases: loadAliases() })

/** Relaxed queries shown at most, when nothing matches. */
const MAX_RELAXED = 5
/** Relaxed queries are tried for queries of at most this many required words (each is one more search). */
const MAX_RELAXED_WORDS = 8

/**
 * `data` holding its arenas itself: the previous snapshot's that it still uses, then its own, by
 * arena number, with `inherited` 0, numbered consecutively over the arenas some record uses
 * (`recordArena` is a new column when they are renumbered), so that an arena no record uses any
 * more — emptied by changes, or compacted — is let go. A new value: `data` is left as it was given.
 * Without `previous`, inherited arenas stay unresolved: a build thread preparing answers reads no
 * record.
 */
const asBuffer = (arena: Uint8Array) => Buffer.from(arena.buffer, arena.byteOffset, arena.byteLength)

function holdingItsArenas(data: SnapshotData, previous: readonly Buffer[] | undefined): SnapshotData {
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

/**
 * `data` with its broad one-word answers prepared (prepared-answers.ts) and its lexicon's tables made
 * (lexicon.ts): in the build's thread, off the serving one, which would otherwise make the tables on
 * the first search.
 */
export function withPreparedAnswers(data: SnapshotData, options?: PrepareOptions): SnapshotData {
  // The arenas first: the answers and the snapshot handed on must read the same arena numbers.
  const held = holdingItsArenas(data, undefined)
  const index = new RecordIndex(held)
  return {
    ...held,
    text: { ...held.text, dense: prebuiltDense(held.text) },
    prepared: index.prepareBroadAnswers(options),
    lexicon: index.lexiconTables(),
    franceOrder: franceOrder(held),
  }
}

/** The listing order of the records whose regions hold France (still sorted by kind first). */
function franceOrder(data: SnapshotData): Uint32Array {
  const { order, france } = data
  return order.filter((doc) => france[doc] === 1)
}

export class RecordIndex {
  /** Content hash of the snapshot: equal records give equal versions on every replica. */
  readonly version: string
  /** When the snapshot was published (RFC 3339). */
  readonly publishedAt: string
  /** The published snapshot these records are, when the source numbers them (PostgreSQL). */
  readonly snapshot: SnapshotInfo | undefined
  readonly countsByKind: Readonly<Record<Kind, number>>
  readonly #data: SnapshotData
  readonly #arenas: Buffer[]
  readonly #text: TextIndex
  readonly #vocabulary: SearchVocabulary
  #lexicon: Lexicon | undefined
  readonly #ranking: Ranking
  readonly #prepared: PreparedAnswers
  /** The region's listing, when the snapshot was not handed one (see #listing). */
  #franceOrder: Uint32Array | undefined
  /** Indexed words as the records write them, found on first use. */
  readonly #displayed = new Map<number, string>()

  /**
   * `previous`: the snapshot a reload built this one beside, whose arenas hold this one's unchanged
   * records (`data.inherited`); required then. Arenas no record uses any more are let go here
   * (holdingItsArenas), in a copy: `data` itself is not changed.
   */
  constructor(
    data: SnapshotData,
    {
      vocabulary = bundledSearchVocabulary(),
      previous,
    }: { vocabulary?: SearchVocabulary; previous?: RecordIndex } = {},
  ) {
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
    this.#text = new TextIndex(data.text)
    this.#vocabulary = vocabulary
    this.#ranking = { tieRank: data.tieRank, rankClass: data.rankClass }
    this.#prepared = new PreparedAnswers(data.prepared ?? NO_PREPARED_ANSWERS)
  }

  /** A snapshot of records held in memory, built here (tests, tools, small sets); the service builds in a worker. */
  static build(batch: RecordBatch, vocabulary?: SearchVocabulary): RecordIndex {
    const builder = new SnapshotBuilder('records')
    batch.records.forEach((record, i) => builder.add(record, `record ${i}`))
    return new RecordIndex(builder.finish({ publishedAt: batch.publishedAt, snapshot: batch.snapshot }), {
      vocabulary,
    })
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
  sharedBytesWith(other: RecordIndex): number {
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

  /** The words' forms and corrections: built on the first search that needs them, so a swap costs nothing. */
  /** The lexicon's tables, for a build to hand on with its snapshot (withPreparedAnswers). */
  lexiconTables(): LexiconData {
    return this.#words.data
  }

  get #words(): Lexicon {
    // The tables handed with the snapshot were made under the bundled forms; another vocabulary makes its own.
    const made = this.#vocabulary === bundledSearchVocabulary() ? this.#data.lexicon : undefined
    return (this.#lexicon ??= new Lexicon(this.#text, this.#vocabulary.forms, made))
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
  compareIdWith(doc: number, other: RecordIndex, otherDoc: number): number {
    const [a, b] = [this.#data, other.#data]
    return (
      a.idPrefix[doc]! - b.idPrefix[otherDoc]! ||
      a.idHigh[doc]! - b.idHigh[otherDoc]! ||
      a.idLow[doc]! - b.idLow[otherDoc]!
    )
  }

  /** Whether `doc` here and `otherDoc` in `other` are the same bytes (their ETags, SHA-256 based, are equal). */
  sameRecordAs(doc: number, other: RecordIndex, otherDoc: number): boolean {
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

  search(query: IndexQuery): SearchPage {
    if (query.q === undefined || queryTokens(query.q).length === 0) {
      const listing = this.#listing(query)
      const interpretation =
        query.q === undefined
          ? undefined
          : { words: [], ignored: [], corrected: [], expanded: [], relaxed: [] }
      const page = listing.subarray(query.offset, query.offset + query.limit)
      return { total: listing.length, results: Array.from(page, (doc) => this.entry(doc)), interpretation }
    }
    const plan = interpretQuery(query.q, {
      lexicon: this.#words,
      aliases: this.#vocabulary.aliases,
      display: (term) => this.#display(term),
    })
    if (query.match === 'best') return this.#bestMatch(plan.words, plan.interpretation, query)
    const hits = this.#match(plan.words, query, false)
    if (hits.total === 0) plan.interpretation.relaxed = this.#relaxed(plan.words, query)
    return {
      total: hits.total,
      results: hits.docs.map((doc) => this.entry(doc)),
      interpretation: plan.interpretation,
    }
  }

  /**
   * Best match: the records holding the most of the required words (weighted by rarity), ranked. The
   * interpretation names the words the best records hold (`matched`), those left out, and for each
   * result of the page that lacks some required words, which ones. One required word is an
   * all-words search: a record holds it or not.
   */
  #bestMatch(words: readonly PlannedWord[], interpretation: Interpretation, query: IndexQuery): SearchPage {
    let answer: { total: number; docs: number[]; masks: number[]; best: number }
    if (words.length === 1) {
      const hits = this.#match(words, query, false)
      answer = { ...hits, masks: hits.docs.map(() => 1), best: hits.total > 0 ? 1 : 0 }
    } else {
      answer = this.#text.searchBest(
        {
          groups: words.map((w) => w.group),
          keep: this.#filter(query),
          offset: query.offset,
          limit: query.limit,
        },
        this.#ranking,
      )
    }
    const shown = (mask: number) => words.filter((_, i) => ((mask >>> i) & 1) === 1).map((w) => w.shown)
    const lacking = (mask: number) => words.filter((_, i) => ((mask >>> i) & 1) === 0).map((w) => w.shown)
    const results = answer.docs.map((doc) => this.entry(doc))
    interpretation.matched = shown(answer.best)
    interpretation.left_out = lacking(answer.best)
    interpretation.missing = answer.masks.flatMap((mask, i) =>
      lacking(mask).length === 0 ? [] : [{ id: results[i]!.record.id, words: lacking(mask) }],
    )
    return { total: answer.total, results, interpretation }
  }

  // Relevance: more required words in the title first ("title matches above text matches"), then
  // reference content before offers, tools and staff (rankClass), then BM25, then id.
  #match(
    words: readonly PlannedWord[],
    query: IndexQuery,
    countOnly: boolean,
  ): { total: number; docs: number[] } {
    if (words.length === 1) {
      const filter = filterKey(query.kind, query.region)
      const prepared = this.#prepared.find(words[0]!.group, query.offset, query.limit, countOnly, filter)
      if (prepared !== undefined) return prepared
    }
    const groups = words.map((w) => w.group)
    return this.#text.search(
      { groups, keep: this.#filter(query), countOnly, offset: query.offset, limit: query.limit },
      this.#ranking,
    )
  }

  /** The most postings a search built one word's bits from on this snapshot (text-index.ts; the scale tests read it). */
  get largestDenseDecode(): number {
    return this.#text.largestDenseDecode
  }

  /** Broad one-word answers prepared (prepared-answers.ts). */
  get preparedAnswers(): number {
    return this.#prepared.size
  }

  /**
   * The answers to the most frequent words asked alone, without a filter, for a build to keep with
   * the snapshot (prepared-answers.ts): each word is read as a query would read it, and its answer
   * computed as a search would compute it.
   */
  prepareBroadAnswers(options: PrepareOptions = {}): PreparedAnswersData {
    const { minDocuments, maxWords, depth } = { ...PREPARE_DEFAULTS, ...options }
    if (this.size < minDocuments) return NO_PREPARED_ANSWERS
    const writer = new PreparedAnswersWriter()
    for (const term of this.#text.mostFrequent(Math.max(1, minDocuments), maxWords)) {
      const plan = interpretQuery(this.#text.term(term), {
        lexicon: this.#words,
        aliases: this.#vocabulary.aliases,
        display: (t) => this.#text.term(t),
      })
      if (plan.words.length !== 1) continue
      const group = plan.words[0]!.group
      const key = groupKey(group)
      if (writer.has(key)) continue
      const { kinds, france } = this.#data
      const columns = { kinds, france, kindCount: KINDS.length }
      const answers = this.#text.searchByFilter(group, this.#ranking, columns, depth)
      if (answers === undefined) {
        const { total, docs } = this.#text.search(
          { groups: [group], keep: undefined, offset: 0, limit: depth },
          this.#ranking,
        )
        writer.add(key, total, docs)
        continue
      }
      const add = (answer: { total: number; docs: number[] }, kind?: Kind, region?: 'france') =>
        writer.add(groupKey(group, filterKey(kind, region)), answer.total, answer.docs)
      add(answers.all)
      add(answers.france, undefined, 'france')
      KINDS.forEach((kind, k) => {
        add(answers.byKind[k]!, kind)
        add(answers.byKindInFrance[k]!, kind, 'france')
      })
    }
    return writer.done()
  }

  /** The query minus one word, for each word whose removal finds something: fewest matches (most specific) first. */
  #relaxed(words: readonly PlannedWord[], query: IndexQuery): Interpretation['relaxed'] {
    if (words.length < 2 || words.length > MAX_RELAXED_WORDS) return []
    const relaxed = words.map((without, i) => {
      const rest = words.filter((_, j) => j !== i)
      return {
        without: without.shown,
        q: rest.map((w) => w.shown).join(' '),
        total: this.#match(rest, query, true).total,
      }
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
        const { title, body } = searchedText(this.entry(doc).record)
        const spellings = [...queryTokens(title), ...queryTokens(body)]
          .filter((t) => t.word === word)
          .map((t) => t.typed)
        typed = spellings.find((t) => fold(t) === word) ?? typed ?? spellings[0]
        if (typed !== undefined && fold(typed) === word) break
      }
      shown =
        typed === undefined || typed === typed.toUpperCase() ? (typed ?? word) : typed.toLocaleLowerCase('fr')
      this.#displayed.set(term, shown)
    }
    return shown
  }

  /** The kind and region filters as a test on document numbers; undefined when there is none. */
  #filter(query: IndexQuery): ((doc: number) => boolean) | undefined {
    const { kinds, france } = this.#data
    const kind = query.kind === undefined ? -1 : KINDS.indexOf(query.kind)
    if (kind < 0 && query.region === undefined) return undefined
    if (query.region === undefined) return (doc) => kinds[doc] === kind
    return kind < 0 ? (doc) => france[doc] === 1 : (doc) => kinds[doc] === kind && france[doc] === 1
  }

  /**
   * The listing of a filter: a kind is one range of the listing order, which is sorted by kind first
   * (snapshot-orders.ts), found by binary search — a view, no pass over the snapshot. The region's
   * listing is made with the snapshot (withPreparedAnswers; else once, on first use, and kept), and a
   * kind in that region is a range of it the same way.
   */
  #listing(query: IndexQuery): Uint32Array {
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
