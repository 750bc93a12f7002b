/**
 * Builds a snapshot from records streamed one at a time: each is validated, serialised once into the
 * arena, and indexed, and then dropped — no object per record survives the build, and no raw record
 * waits for the others. What is kept per record is bytes and numbers (snapshot-data.ts). The build
 * runs in a worker thread for the service (build-worker.ts), or in-process for tools and tests.
 */
import { createHash, hash } from 'node:crypto'
import { KINDS, type Fact, type Kind } from '../records/record.js'
import { canonicalBytes, isCanonicalJson } from '../records/json-text.js'
import type { RecordText, SnapshotInfo } from '../records/source.js'
import { dateTime, encodeLastChange } from '../records/last-change.js'
import { RecordValidator, type CheckedRecord, type ValidationProblems } from '../records/validate.js'
import { Growable, pageBacked } from './growable.js'
import { tokenize } from './tokenize.js'
import { OrderKeys, mergeRuns, type Orders } from './snapshot-orders.js'
import { unchangedRecord, type PreviousRecords } from './previous-records.js'
import {
  BUILT_COLUMNS,
  ETAG_LENGTH,
  appendColumns,
  builtColumns,
  columnBuilders,
  snapshotColumns,
  type BuiltColumns,
} from './snapshot-columns.js'
import { ARENA_BYTES, ownBuffers, type SnapshotData, type TextIndexData } from './snapshot-data.js'
import { TextIndexBuilder, mergeTextParts, type TextIndexPart } from './text-index-builder.js'

/** Record ids' prefixes in byte order, so (prefix code, hex) sorts as the ids do. */
export const ID_PREFIXES = ['brand-', 'expertise-fait-', 'fait-', 'offer-', 'page-', 'person-'] as const

/** An id as three numbers (prefix code, high and low halves of its 16 hex digits); undefined when it is not an id. */
export function idKey(id: string): [number, number, number] | undefined {
  const dash = id.length - 17
  if (dash < 0 || id[dash] !== '-') return undefined
  const prefix = ID_PREFIXES.indexOf(id.slice(0, dash + 1) as (typeof ID_PREFIXES)[number])
  const hex = id.slice(dash + 1)
  if (prefix < 0 || !/^[0-9a-f]{16}$/.test(hex)) return undefined
  return [prefix, parseInt(hex.slice(0, 8), 16), parseInt(hex.slice(8), 16)]
}

/**
 * A url as two 32-bit hashes (FNV-1a with two offset bases) of its UTF-16 units: enough to find a
 * record by its url, the caller checking the url itself. Computed in JavaScript: an MD5 through
 * node:crypto cost ten times as much per record, for nothing a lookup needs.
 */
export function urlKey(url: string): [number, number] {
  let [high, low] = [0x811c9dc5, 0x01000193 ^ 0x5bd1e995]
  for (let i = 0; i < url.length; i++) {
    const unit = url.charCodeAt(i)
    high = Math.imul(high ^ unit, 0x01000193)
    low = Math.imul(low ^ unit, 0x5bd1e995)
    low ^= low >>> 15
  }
  return [high >>> 0, low >>> 0]
}

/**
 * Among records that match equally well (as many query words in their title), the reference content
 * — official rules, method, lessons, articles, the site's pages — comes before the school's own
 * offers, tools, staff and organization; BM25 orders each class. So a learner asking about the
 * blood-alcohol limit meets the rule before the estimator. Five orders were measured on the
 * relevance table (docs/search.md "Ranking"); this one ranks best among those that keep rules above tools.
 */
const PROMOTION: ReadonlySet<Kind> = new Set(['offer', 'tool', 'person', 'organization'])
const rankClassOf = (record: Fact): number => (PROMOTION.has(record.kind) ? 1 : 0)

/**
 * An offer's price in words, as people ask for it (« prix du forfait code », « combien coûte… »):
 * offers state it in `offer_data`, and their texts rarely repeat it.
 */
function priceWords(offer: NonNullable<Fact['offer_data']>): string | undefined {
  if (offer.price === undefined) return undefined
  const currency =
    offer.price_currency === undefined || offer.price_currency === 'EUR' ? '€' : offer.price_currency
  return `Prix : ${String(offer.price)} ${currency}`
}

/**
 * The answers held only in structured fields, in words as people ask for them: the organization's
 * legal name, address and telephone (« adresse de l'auto-école », « numéro de téléphone »), a
 * person's job title and affiliation (« qui est la responsable pédagogique »), and the text of the
 * open members of the three objects (an offer's duration or what it includes, as a publisher names
 * them). A structured address (schema.org's PostalAddress) is read by its text values. Links, dates
 * and codes answer no question a word would ask, and are not read.
 */
function structuredWords(record: Fact, parts: string[]): void {
  const organization = record.organization_data
  if (organization !== undefined) {
    if (organization.legal_name !== undefined) parts.push(organization.legal_name)
    const address = organization.address
    if (typeof address === 'string') parts.push(`Adresse : ${address}`)
    else if (address !== undefined) {
      const values = Object.values(address).filter(
        (v): v is string | number => typeof v === 'string' || typeof v === 'number',
      )
      if (values.length > 0) parts.push(`Adresse : ${values.join(' ')}`)
    }
    if (organization.telephone !== undefined) parts.push(`Téléphone : ${organization.telephone}`)
    openText(organization, ORGANIZATION_READ, parts)
  }
  const person = record.person_data
  if (person !== undefined) {
    // A person's record is usually titled with the job title: read again, its words would only
    // count twice, ranking the person above an offer on the words of a job (« examen blanc avec un
    // moniteur »). What it adds to the title is read.
    if (person.job_title !== undefined) parts.push(wordsNotIn(person.job_title, record.title))
    if (person.affiliation !== undefined) parts.push(person.affiliation)
    openText(person, PERSON_READ, parts)
  }
  if (record.offer_data !== undefined) openText(record.offer_data, OFFER_READ, parts)
}

/** The words of `text` that `title` does not hold, as folded words, in their order. */
function wordsNotIn(text: string, title: string): string {
  const held = new Set(tokenize(title))
  return tokenize(text)
    .filter((word) => !held.has(word))
    .join(' ')
}

/** The members each object's own reading above handles (or, for an offer, that are no words). */
const ORGANIZATION_READ: ReadonlySet<string> = new Set(['legal_name', 'address', 'telephone', 'same_as'])
const PERSON_READ: ReadonlySet<string> = new Set(['job_title', 'affiliation'])
const OFFER_READ: ReadonlySet<string> = new Set(['price', 'price_currency', 'valid_from', 'valid_through'])

/** A value that is a link, a date or a code, not words: « https://… », « 2026-01-01 », « EUR ». */
const NOT_WORDS = /^(?:[a-z][a-z0-9+.-]*:\/\/\S*|\d{4}-\d{2}-\d{2}(?:T\S*)?|[A-Z]{3})$/

/**
 * The text of an open object's other members (docs/contract.md "Record fields left open"): its
 * strings, and the strings of its lists (« inclus : ["20 heures de conduite", "le livret"] »); not
 * numbers, whose meaning is in the member's name, nor deeper objects.
 */
function openText(data: Record<string, unknown>, read: ReadonlySet<string>, parts: string[]): void {
  for (const [name, value] of Object.entries(data)) {
    if (read.has(name)) continue
    const texts = Array.isArray(value) ? value : [value]
    for (const text of texts) if (typeof text === 'string' && !NOT_WORDS.test(text.trim())) parts.push(text)
  }
}

/**
 * What is searched: the title, and as body the text, description, an offer's price, the text of
 * the organization's, a person's and an offer's structured fields (structuredWords) and references
 * (source labels, bibliography).
 */
export function searchedText(record: Fact): { title: string; body: string } {
  // Gathered with a loop, not by spreading the optional bibliography into an array literal: the
  // spread made the build's hottest function deoptimise (and be compiled again) at each record shape
  // it had not met. Joined, not concatenated: the term reader walks a flat string faster than a rope.
  const parts = [record.text, record.description ?? '']
  const price = record.offer_data === undefined ? undefined : priceWords(record.offer_data)
  if (price !== undefined) parts.push(price)
  if (
    record.organization_data !== undefined ||
    record.person_data !== undefined ||
    record.offer_data !== undefined
  )
    structuredWords(record, parts)
  for (const source of record.sources) parts.push(source.label)
  const bibliography = record.bibliography
  if (bibliography !== undefined) for (const entry of bibliography) parts.push(entry)
  return { title: record.title, body: parts.join('\n') }
}

/**
 * The records one thread built from its part of a source (snapshot-builder's columns before
 * `finish`), sent to the thread that builds the next part before it, which absorbs it.
 */
export type SnapshotPart = BuiltColumns & {
  /** This part's documents (numbered from 0) in the three orders a snapshot keeps. */
  orders: Orders
  /**
   * This part's arenas; its records' arena numbers (`recordArena`) from the build's `inherited` on
   * are numbers in this list.
   */
  arenas: Uint8Array[]
  /** What a place is ("line", "record", "row"), for `place`'s numbers. */
  placeKind: string
  titles: string[]
  /** The titles' collation keys, made to sort the part (the merge compares them again). */
  titleKeys: (string | undefined)[]
  countsByKind: number[]
  problems: ValidationProblems
  text: TextIndexPart
}

/** The buffers of a part, to transfer it between threads without copying. */
export function partTransferList(part: SnapshotPart): ArrayBuffer[] {
  const { text } = part
  const arrays = [
    part.orders.byId,
    part.orders.order,
    part.orders.byUrl,
    ...part.arenas,
    ...BUILT_COLUMNS.map((name) => part[name]),
    text.frequency,
    text.termStart,
    text.postings,
    text.lastDoc,
    text.titleLength,
    text.bodyLength,
  ]
  return ownBuffers(arrays.map((a) => a.buffer))
}

export type SnapshotBuilderOptions = {
  /** The snapshot being served, on a reload: records it holds unchanged stay where they are (previous-records.ts). */
  previous?: PreviousRecords
  /** When an arena is full enough for the next one to start; ARENA_BYTES by default (tests make it small). */
  arenaBytes?: number
}

export class SnapshotBuilder {
  readonly #validator: RecordValidator
  readonly #previous: PreviousRecords | undefined
  /** Arena numbers below this name the previous snapshot's arenas. */
  readonly #inherited: number
  readonly #arenaBytes: number
  /** This builder's own arenas, the last one being filled. */
  readonly #arenas = [new Growable('u8')]
  /** The arenas of absorbed parts, after this builder's own. */
  readonly #laterArenas: Uint8Array[] = []
  /**
   * This builder's own records once complete (`seal`, or the first `absorb`): how many, sorted in
   * each order, their postings encoded. Absorbed parts' orders follow, shifted to their place.
   */
  #own: { count: number; orders: Orders; text: TextIndexPart } | undefined
  readonly #laterOrders: Orders[] = []
  /** The records' columns (snapshot-columns.ts), this builder's own records' then the absorbed parts'. */
  readonly #columns = columnBuilders()
  /** What a place is, for the `place` column's numbers ("line" 7), in duplicate-id messages. */
  #placeKind = 'record'
  /** Titles, for the listing order (sorted once at the end), then dropped. */
  readonly #titles: string[] = []
  /** The titles' collation keys once made (`seal`, then each absorbed part's), for the merge in `finish`. */
  readonly #titleKeys: (string | undefined)[] = []
  readonly #text = new TextIndexBuilder()
  /** The text indexes of absorbed parts, merged with this builder's own at the end. */
  readonly #laterText: TextIndexPart[] = []
  readonly #countsByKind = KINDS.map(() => 0)

  constructor(origin: string, options: SnapshotBuilderOptions = {}) {
    this.#validator = new RecordValidator(origin)
    this.#previous = options.previous
    this.#inherited = options.previous?.arenaCount ?? 0
    this.#arenaBytes = options.arenaBytes ?? ARENA_BYTES
  }

  get count(): number {
    return this.#titles.length
  }

  /**
   * Validates and indexes one raw record; a bad one is noted for `finish` and left out. `text`: the
   * JSON text it was parsed from, kept as its bytes when it is the record's canonical JSON.
   */
  add(value: unknown, where: string, text?: RecordText): void {
    if (this.#own !== undefined)
      throw new Error('snapshot builder: a record added after its own records were sealed')
    const checked = this.#validator.check(value, where)
    if (checked === undefined || this.#validator.failed) return // once anything failed, nothing will be served: only validate
    const { record } = checked
    const doc = this.#titles.length
    const [prefix, high, low] = idKey(record.id)! // the schema checked the id
    this.#store(checked, text, prefix, high, low)
    const columns = this.#columns
    const kind = KINDS.indexOf(record.kind)
    columns.kinds.push(kind)
    this.#countsByKind[kind]!++
    columns.france.push(record.regions.includes('France') ? 1 : 0)
    columns.rankClass.push(rankClassOf(record))
    columns.idPrefix.push(prefix)
    columns.idHigh.push(high)
    columns.idLow.push(low)
    const [urlHigh, urlLow] = urlKey(record.url)
    columns.urlHigh.push(urlHigh)
    columns.urlLow.push(urlLow)
    const changed = encodeLastChange(record)
    columns.lastChange.push(changed.time)
    columns.lastChangeDate.push(changed.date)
    columns.verifiedAt.push(
      record.kind === 'fact' && record.verified_at !== undefined ? dateTime(record.verified_at) : NaN,
    )
    // "line 7", "record 3", "row 12": one kind of place per source, a number per record.
    const space = where.lastIndexOf(' ')
    if (doc === 0) this.#placeKind = where.slice(0, space)
    columns.place.push(Number(where.slice(space + 1)))
    this.#titles.push(record.title)
    const { title, body } = searchedText(record)
    this.#text.add(title, body)
  }

  /**
   * Writes a record's JSON into the current arena and its ETag, and notes where its bytes are: there,
   * or where the previous snapshot holds the same bytes (then the arena takes them back). The JSON
   * is the text the record was read from when that is canonical (its bytes copied when the source
   * read bytes), else the record serialised.
   */
  #store(
    { record, measure }: CheckedRecord,
    text: RecordText | undefined,
    prefix: number,
    high: number,
    low: number,
  ): void {
    let current = this.#arenas.at(-1)!
    if (current.length >= this.#arenaBytes) this.#arenas.push((current = new Growable('u8')))
    const canonical = text !== undefined && isCanonicalJson(text.json, measure)
    const bytes =
      canonical && text.bytes !== undefined ? canonicalBytes(text.bytes, text.start, text.end) : undefined
    const json = bytes !== undefined ? '' : canonical ? text.json : JSON.stringify(record)
    const arena = this.#writable(current, bytes?.length ?? json.length * 3) // UTF-8 takes at most 3 bytes per UTF-16 unit
    const start = current.length
    if (bytes !== undefined) arena.set(bytes, start)
    const written = bytes?.length ?? arena.write(json, start)
    const { etags, recordArena, recordStart, recordLength } = this.#columns
    const etagAt = etags.length
    const etag = hash('sha256', arena.subarray(start, start + written), 'base64url')
    this.#writable(etags, ETAG_LENGTH).write(etag, etagAt, ETAG_LENGTH, 'latin1')
    etags.length += ETAG_LENGTH
    const kept =
      this.#previous === undefined
        ? -1
        : unchangedRecord(this.#previous, prefix, high, low, etags.values, etagAt)
    if (kept >= 0) {
      const previous = this.#previous!
      recordArena.push(previous.recordArena[kept]!)
      recordStart.push(previous.recordStart[kept]!)
      recordLength.push(previous.recordLength[kept]!)
      return
    }
    current.length += written
    recordArena.push(this.#inherited + this.#arenas.length - 1)
    recordStart.push(start)
    recordLength.push(written)
  }

  /** A Buffer over `array`'s memory with room for `count` more bytes; made again only when the memory grew. */
  #writable(array: Growable<'u8'>, count: number): Buffer {
    array.reserve(count)
    const memory = array.values.buffer
    let view = this.#views.get(array)
    if (view === undefined || view.byteLength !== memory.byteLength)
      this.#views.set(array, (view = Buffer.from(memory, 0, memory.byteLength)))
    return view
  }

  readonly #views = new Map<Growable<'u8'>, Buffer>()

  /** What was built so far, as a part for another builder to absorb (this builder is done with it). */
  part(): SnapshotPart {
    if (this.#own !== undefined) throw new Error('snapshot builder: a sealed builder is not a part')
    const keys = this.#orderKeys()
    const orders = keys.sorted(0, this.#titles.length)
    return {
      ...builtColumns(this.#columns),
      orders,
      arenas: this.#arenas.map((arena) => arena.done()),
      placeKind: this.#placeKind,
      titles: this.#titles,
      titleKeys: keys.titleKeys(),
      countsByKind: this.#countsByKind,
      problems: this.#validator.problems(),
      text: mergeTextParts([this.#text.part(), ...this.#laterText]),
    }
  }

  /**
   * Ends this builder's own records: sorts them and encodes their postings now. A builder whose
   * later parts are read on other threads calls it as soon as its own read ends, so this work runs
   * while those threads still read, instead of after them.
   */
  seal(): void {
    if (this.#own !== undefined) return
    const keys = this.#orderKeys()
    this.#own = { count: this.count, orders: keys.sorted(0, this.count), text: this.#text.part() }
    for (const key of keys.titleKeys()) this.#titleKeys.push(key)
  }

  /** Appends the records another builder read from the part of the source that follows this one's. */
  absorb(part: SnapshotPart): void {
    this.seal()
    // A read of the whole stops keeping records at its first problem (nothing will be served): so does this.
    if (this.#validator.failed) {
      this.#validator.absorb(part.problems)
      return
    }
    const first = this.count
    const shifted = (docs: Uint32Array) => {
      const out = pageBacked(Uint32Array, docs.length)
      for (let i = 0; i < docs.length; i++) out[i] = docs[i]! + first
      return out
    }
    this.#laterOrders.push({
      byId: shifted(part.orders.byId),
      order: shifted(part.orders.order),
      byUrl: shifted(part.orders.byUrl),
    })
    // The part's own arenas follow those before it: its arena numbers from `inherited` on shift to their place.
    const inherited = this.#inherited
    const shift = this.#arenas.length + this.#laterArenas.length
    for (const arena of part.recordArena)
      this.#columns.recordArena.push(arena < inherited ? arena : arena + shift)
    this.#laterArenas.push(...part.arenas)
    appendColumns(this.#columns, part, ['recordArena'])
    if (first === 0) this.#placeKind = part.placeKind
    for (const title of part.titles) this.#titles.push(title)
    for (const key of part.titleKeys) this.#titleKeys.push(key)
    part.countsByKind.forEach((n, kind) => (this.#countsByKind[kind]! += n))
    this.#validator.absorb(part.problems)
    this.#laterText.push(part.text)
  }

  /** The snapshot; throws naming every bad record (the first 20) and duplicate id when there is any. */
  finish(info: { publishedAt?: string; snapshot?: SnapshotInfo; origin?: string } = {}): SnapshotData {
    const count = this.#titles.length
    // This builder's records sorted when sealed, each absorbed part's by its own thread: merged.
    this.seal()
    const built = builtColumns(this.#columns)
    const keys = this.#orderKeys()
    const own = this.#own!
    const runs = [own.orders, ...this.#laterOrders.splice(0)]
    const byId = mergeRuns(
      runs.map((r) => r.byId),
      keys.byId,
    )
    this.#checkDuplicates(byId, built)
    this.#validator.finish(info.origin)
    const tieRank = pageBacked(Uint32Array, count)
    for (let rank = 0; rank < count; rank++) tieRank[byId[rank]!] = rank
    const order = mergeRuns(
      runs.map((r) => r.order),
      keys.listing,
    )
    this.#titles.length = 0
    this.#titleKeys.length = 0
    const byUrl = mergeRuns(
      runs.map((r) => r.byUrl),
      keys.byUrl,
    )
    // What a later reload reads of this snapshot is copied to shared memory here (previous-records.ts).
    const columns = snapshotColumns(built, { tieRank, order, byId, byUrl })
    // The version hashes the records' ETags in listing order: equal records give equal versions on
    // every replica, whatever order the source gave them in.
    // One update of the ETags laid in listing order: an update per record was 0.7 µs each.
    const { etags } = columns
    const ordered = Buffer.allocUnsafe(count * ETAG_LENGTH)
    for (let k = 0, to = 0; k < count; k++)
      for (let from = order[k]! * ETAG_LENGTH, end = from + ETAG_LENGTH; from < end;)
        ordered[to++] = etags[from++]!
    const version = createHash('sha256').update(ordered)
    return {
      ...columns,
      count,
      arenas: [...this.#arenas.map((arena) => arena.done()), ...this.#laterArenas.splice(0)],
      inherited: this.#inherited,
      countsByKind: this.#countsByKind,
      version: version.digest('hex').slice(0, 16),
      publishedAt: info.publishedAt ?? new Date().toISOString(),
      snapshot: info.snapshot,
      text: textIndexData(mergeTextParts([own.text, ...this.#laterText.splice(0)])),
    }
  }

  #orderKeys(): OrderKeys {
    // The keys made when sealing and by the absorbed parts, once they cover every title.
    const titleKeys = this.#titleKeys.length === this.#titles.length ? this.#titleKeys : undefined
    const { kinds, idPrefix, idHigh, idLow, urlHigh, urlLow } = this.#columns
    return new OrderKeys(
      kinds.done(),
      this.#titles,
      idPrefix.done(),
      idHigh.done(),
      idLow.done(),
      urlHigh.done(),
      urlLow.done(),
      titleKeys,
    )
  }

  #checkDuplicates(
    byId: Uint32Array,
    { idPrefix: prefix, idHigh: high, idLow: low, place }: BuiltColumns,
  ): void {
    for (let i = 1; i < byId.length; i++) {
      const [a, b] = [byId[i - 1]!, byId[i]!]
      if (prefix[a] !== prefix[b] || high[a] !== high[b] || low[a] !== low[b]) continue
      // Sorted stably by document: `a` came first.
      const id = `${ID_PREFIXES[prefix[b]!]}${high[b]!.toString(16).padStart(8, '0')}${low[b]!.toString(16).padStart(8, '0')}`
      this.#validator.duplicate(id, `${this.#placeKind} ${place[b]}`, `${this.#placeKind} ${place[a]}`)
    }
  }
}

/** The index with its average field lengths (BM25's). */
function textIndexData({ titleWords, bodyWords, lastDoc: _, ...data }: TextIndexPart): TextIndexData {
  const n = data.titleLength.length
  return { ...data, averageTitle: titleWords / n || 1, averageBody: bodyWords / n || 1 }
}
