/**
 * Builds a snapshot from records streamed one at a time: each is validated, serialised once into the
 * arena, and indexed, and then dropped — no object per record survives the build, and no raw record
 * waits for the others. What is kept per record is bytes and numbers (snapshot-data.ts). The build
 * runs in a worker thread for the service (build-worker.ts), or in-process for tools and tests.
 */
import { createHash } from 'node:crypto'
import { KINDS, type Fact, type Kind } from '../records/record.js'
import type { SnapshotInfo } from '../records/source.js'
import { RecordValidator } from '../records/validate.js'
import { Growable, grown } from './growable.js'
import { ETAG_LENGTH, type SnapshotData, type TextIndexData } from './snapshot-data.js'
import { tokenize } from './tokenize.js'

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

/** A url as two 32-bit halves of its MD5: enough to find a record by its url (the caller checks the url). */
export function urlKey(url: string): [number, number] {
  const digest = createHash('md5').update(url).digest()
  return [digest.readUInt32BE(0), digest.readUInt32BE(4)]
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

/** What is searched: the title, and as body the text, description and references (source labels, bibliography). */
export function searchedText(record: Fact): { title: string; body: string } {
  const references = [...record.sources.map((s) => s.label), ...(record.bibliography ?? [])]
  return { title: record.title, body: [record.text, record.description ?? '', ...references].join('\n') }
}

/** Growable postings of one word; copied into the snapshot's shared arrays at the end. */
class TermPostings {
  docs = new Uint32Array(2)
  titleTf = new Uint8Array(2)
  bodyTf = new Uint8Array(2)
  size = 0
  add(doc: number, titleTf: number, bodyTf: number): void {
    if (this.size === this.docs.length) {
      this.docs = grown(this.docs)
      this.titleTf = grown(this.titleTf)
      this.bodyTf = grown(this.bodyTf)
    }
    this.docs[this.size] = doc
    this.titleTf[this.size] = Math.min(titleTf, 255)
    this.bodyTf[this.size] = Math.min(bodyTf, 255)
    this.size++
  }
}

/** The inverted index, built a document at a time: terms are interned to numbers, counted in reusable arrays. */
class TextIndexBuilder {
  readonly #termIds = new Map<string, number>()
  readonly #terms: string[] = []
  readonly #postings: TermPostings[] = []
  #titleCounts = new Uint32Array(1024)
  #bodyCounts = new Uint32Array(1024)
  readonly #touched: number[] = []
  readonly #titleLength = new Growable('f32')
  readonly #bodyLength = new Growable('f32')
  #titles = 0
  #bodies = 0

  add(doc: number, title: string, body: string): void {
    const titleWords = this.#count(tokenize(title), true)
    const bodyWords = this.#count(tokenize(body), false)
    for (const id of this.#touched) {
      this.#postings[id]!.add(doc, this.#titleCounts[id]!, this.#bodyCounts[id]!)
      this.#titleCounts[id] = 0
      this.#bodyCounts[id] = 0
    }
    this.#touched.length = 0
    this.#titleLength.push(titleWords)
    this.#bodyLength.push(bodyWords)
    this.#titles += titleWords
    this.#bodies += bodyWords
  }

  #count(words: string[], title: boolean): number {
    for (const word of words) {
      let id = this.#termIds.get(word)
      if (id === undefined) {
        id = this.#terms.length
        this.#termIds.set(word, id)
        this.#terms.push(word)
        this.#postings.push(new TermPostings())
        if (id >= this.#titleCounts.length) {
          this.#titleCounts = grown(this.#titleCounts)
          this.#bodyCounts = grown(this.#bodyCounts)
        }
      }
      if (this.#titleCounts[id] === 0 && this.#bodyCounts[id] === 0) this.#touched.push(id)
      if (title) this.#titleCounts[id]!++
      else this.#bodyCounts[id]!++
    }
    return words.length
  }

  /** The postings of every term in shared arrays; each term's own arrays are released as it is copied. */
  done(): TextIndexData {
    let total = 0
    for (const p of this.#postings) total += p.size
    const termStart = new Uint32Array(this.#terms.length + 1)
    const docs = new Uint32Array(total)
    const titleTf = new Uint8Array(total)
    const bodyTf = new Uint8Array(total)
    let at = 0
    for (let t = 0; t < this.#postings.length; t++) {
      const p = this.#postings[t]!
      termStart[t] = at
      docs.set(p.docs.subarray(0, p.size), at)
      titleTf.set(p.titleTf.subarray(0, p.size), at)
      bodyTf.set(p.bodyTf.subarray(0, p.size), at)
      at += p.size
      this.#postings[t] = undefined as unknown as TermPostings // freed as we go: peak one copy, not two
    }
    termStart[this.#terms.length] = at
    const titleLength = this.#titleLength.done()
    const bodyLength = this.#bodyLength.done()
    const n = titleLength.length
    return {
      terms: this.#terms,
      termStart,
      docs,
      titleTf,
      bodyTf,
      titleLength,
      bodyLength,
      averageTitle: this.#titles / n || 1,
      averageBody: this.#bodies / n || 1,
    }
  }
}

const collator = new Intl.Collator('fr')

export class SnapshotBuilder {
  readonly #validator: RecordValidator
  readonly #arena = new Growable('u8')
  readonly #offsets = new Growable('f64')
  readonly #etags = new Growable('u8')
  readonly #kinds = new Growable('u8')
  readonly #france = new Growable('u8')
  readonly #rankClass = new Growable('u8')
  readonly #idPrefix = new Growable('u8')
  readonly #idHigh = new Growable('u32')
  readonly #idLow = new Growable('u32')
  readonly #urlHigh = new Growable('u32')
  readonly #urlLow = new Growable('u32')
  /** Where each record came from ("line 7"), as a number and a kind of place, for duplicate-id messages. */
  readonly #place = new Growable('u32')
  #placeKind = 'record'
  /** Titles, for the listing order (sorted once at the end), then dropped. */
  readonly #titles: string[] = []
  readonly #text = new TextIndexBuilder()
  readonly #countsByKind = KINDS.map(() => 0)

  constructor(origin: string) {
    this.#validator = new RecordValidator(origin)
    this.#offsets.push(0)
  }

  get count(): number {
    return this.#titles.length
  }

  /** Validates and indexes one raw record; a bad one is noted for `finish` and left out. */
  add(value: unknown, where: string): void {
    const record = this.#validator.check(value, where)
    if (record === undefined || this.#validator.failed) return // once anything failed, nothing will be served: only validate
    const doc = this.#titles.length
    const json = JSON.stringify(record)
    const arena = this.#writable(this.#arena, json.length * 3) // UTF-8 takes at most 3 bytes per UTF-16 unit
    const start = this.#arena.length
    const written = arena.write(json, start)
    this.#arena.length += written
    this.#offsets.push(this.#arena.length)
    const etag = createHash('sha256').update(arena.subarray(start, start + written)).digest('base64url')
    this.#writable(this.#etags, ETAG_LENGTH).write(etag, this.#etags.length, ETAG_LENGTH, 'latin1')
    this.#etags.length += ETAG_LENGTH
    const kind = KINDS.indexOf(record.kind)
    this.#kinds.push(kind)
    this.#countsByKind[kind]!++
    this.#france.push(record.regions.includes('France') ? 1 : 0)
    this.#rankClass.push(rankClassOf(record))
    const [prefix, high, low] = idKey(record.id)! // the schema checked the id
    this.#idPrefix.push(prefix)
    this.#idHigh.push(high)
    this.#idLow.push(low)
    const [urlHigh, urlLow] = urlKey(record.url)
    this.#urlHigh.push(urlHigh)
    this.#urlLow.push(urlLow)
    // "line 7", "record 3", "row 12": one kind of place per source, a number per record.
    const space = where.lastIndexOf(' ')
    if (doc === 0) this.#placeKind = where.slice(0, space)
    this.#place.push(Number(where.slice(space + 1)))
    this.#titles.push(record.title)
    const { title, body } = searchedText(record)
    this.#text.add(doc, title, body)
  }

  /** A Buffer over `array`'s memory with room for `count` more bytes; made again only when the memory grew. */
  #writable(array: Growable<'u8'>, count: number): Buffer {
    array.reserve(count)
    const memory = array.values.buffer
    let view = this.#views.get(array)
    if (view === undefined || view.byteLength !== memory.byteLength) this.#views.set(array, (view = Buffer.from(memory, 0, memory.byteLength)))
    return view
  }

  readonly #views = new Map<Growable<'u8'>, Buffer>()

  /** The snapshot; throws naming every bad record (the first 20) and duplicate id when there is any. */
  finish(info: { publishedAt?: string; snapshot?: SnapshotInfo; origin?: string } = {}): SnapshotData {
    const count = this.#titles.length
    const idPrefix = this.#idPrefix.done()
    const idHigh = this.#idHigh.done()
    const idLow = this.#idLow.done()
    const byId = sortedBy(count, (a, b) => idPrefix[a]! - idPrefix[b]! || idHigh[a]! - idHigh[b]! || idLow[a]! - idLow[b]!)
    this.#checkDuplicates(byId, idPrefix, idHigh, idLow)
    this.#validator.finish(info.origin)
    const tieRank = new Uint32Array(count)
    for (let rank = 0; rank < count; rank++) tieRank[byId[rank]!] = rank
    const kinds = this.#kinds.done()
    const titles = this.#titles
    const order = sortedBy(count, (a, b) => kinds[a]! - kinds[b]! || collator.compare(titles[a]!, titles[b]!) || tieRank[a]! - tieRank[b]!)
    this.#titles.length = 0
    const urlHigh = this.#urlHigh.done()
    const urlLow = this.#urlLow.done()
    const byUrl = sortedBy(count, (a, b) => urlHigh[a]! - urlHigh[b]! || urlLow[a]! - urlLow[b]!)
    const etags = this.#etags.done()
    // The version hashes the records' ETags in listing order: equal records give equal versions on
    // every replica, whatever order the source gave them in.
    const version = createHash('sha256')
    for (const doc of order) version.update(etags.subarray(doc * ETAG_LENGTH, (doc + 1) * ETAG_LENGTH))
    return {
      count,
      arena: this.#arena.done(),
      offsets: this.#offsets.done(),
      etags,
      kinds,
      france: this.#france.done(),
      rankClass: this.#rankClass.done(),
      order,
      idPrefix,
      idHigh,
      idLow,
      byId,
      tieRank,
      urlHigh,
      urlLow,
      byUrl,
      countsByKind: this.#countsByKind,
      version: version.digest('hex').slice(0, 16),
      publishedAt: info.publishedAt ?? new Date().toISOString(),
      snapshot: info.snapshot,
      text: this.#text.done(),
    }
  }

  #checkDuplicates(byId: Uint32Array, prefix: Uint8Array, high: Uint32Array, low: Uint32Array): void {
    const place = this.#place.done()
    for (let i = 1; i < byId.length; i++) {
      const [a, b] = [byId[i - 1]!, byId[i]!]
      if (prefix[a] !== prefix[b] || high[a] !== high[b] || low[a] !== low[b]) continue
      // Sorted stably by document: `a` came first.
      const id = `${ID_PREFIXES[prefix[b]!]}${high[b]!.toString(16).padStart(8, '0')}${low[b]!.toString(16).padStart(8, '0')}`
      this.#validator.duplicate(id, `${this.#placeKind} ${place[b]}`, `${this.#placeKind} ${place[a]}`)
    }
  }
}

/** Document numbers 0..count-1 sorted by `compare` (stable: ties keep document order). */
function sortedBy(count: number, compare: (a: number, b: number) => number): Uint32Array {
  const docs = Array.from({ length: count }, (_, i) => i)
  docs.sort((a, b) => compare(a, b) || a - b)
  return Uint32Array.from(docs)
}
