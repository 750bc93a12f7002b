/**
 * The text index: an inverted index of folded whole words, its postings encoded in one shared byte
 * array (built by text-index-builder.ts, postings-codec.ts), decoded per term when a query needs them.
 *
 * Written by hand because the library we started with (MiniSearch 7) kept the exact semantics but
 * not the scale: on 100 000 generated records it took 34 s to index and ~200 ms per broad query,
 * since it materialises every match with per-term field details before we can page. The contract
 * needs less than a general engine gives — whole words after folding, AND of all words, a title
 * tier, deterministic ties — and that fits in postings scanned once per query with a top-k heap.
 */
import { matchBestInSteps, type BestMatchAnswer, type BestMatchRequest } from './best-match.js'
import {
  CandidateSpace,
  GroupScratch,
  matchGroupsInSteps,
  type FieldStats,
  type MatchRequest,
  type Ranking,
  type SearchScratch,
} from './match.js'
import { LRUCache } from 'lru-cache'
import {
  isFlatGroup,
  matchOneGroupByFilter,
  type AnswersByFilter,
  type FilterColumns,
} from './match-one-group.js'
import type { TermGroup } from './match.js'
import { DensePostings, type DenseParts, type TermPostings } from './dense-postings.js'
import type { Postings } from './postings.js'
import { DECODED_POSTING_BYTES, decodePostings, type EncodedRun } from './postings-codec.js'
import type { PrebuiltDense, TextIndexData } from './snapshot-data.js'
import { runThrough, type Steps } from './steps.js'
import { isIgnorable } from './stop-words.js'

/**
 * Postings kept, in bytes: decoded arrays (6 bytes a posting) of the words few documents hold, and
 * bits (dense-postings.ts, about 0.5 MB a word at 1 000 000 records) of the common words, which
 * queries of several words need again and again and take the longest to decode. At 1 000 000
 * records the ten long queries of bench/lib/scale-queries.ts read 46 common words (24 MiB as bits)
 * and 8 MiB of arrays: this keeps them, where 16 MiB of arrays alone held two or three common words.
 * Kept bounded because a larger cache took the service's memory under queries past 2 GiB at
 * 1 000 000 records (docs/scale.md).
 */
const DECODED_BYTES = 16 * 2 ** 20
/**
 * The bits of the most frequent searched words are made with the snapshot (`prebuiltDense`, in the
 * build's thread) and held as long as it is served, up to this many bytes: a query of common words
 * read cold decoded each of them on the serving thread first, 8–20 ms a word of 500 000 documents
 * at 1 000 000 records, and a query of eight such words held the thread 140 ms or more (issue 43,
 * item 3). Taken from the cache's budget (32 MiB before), so that the memory stays the same.
 */
const PREBUILT_BYTES = 16 * 2 ** 20
/** Words held by fewer documents than this are decoded when a search needs them: a millisecond or less. */
const PREBUILT_MIN_DOCUMENTS = 50_000

/** The largest decoded postings a one-word search puts in the cache (2 MiB: 350 000 postings). */
const LARGEST_DECODED = 2 * 2 ** 20

/** A word held by at least one document in DENSE_SHARE is read as bits by searches of several words. */
const DENSE_SHARE = 16

/**
 * Postings a read-ahead step decodes at most, about: a step is one turn of the event loop, and a
 * word of 200 000 documents takes 5–15 ms to read as bits at 1 000 000 records (a word larger than
 * this is a step of its own).
 */
const READ_AHEAD_POSTINGS = 150_000

/** The cache key of a term's postings as bits (term numbers are the keys of the decoded arrays). */
const denseKey = (term: number) => -1 - term

export class TextIndex {
  readonly #data: TextIndexData
  readonly #termIds: Map<string, number>
  /**
   * The postings queries used most recently: decoded as arrays under the term number, and for the
   * words most documents hold, as bits (dense-postings.ts) under `denseKey(term)`.
   */
  readonly #decoded = new LRUCache<number, TermPostings>({
    maxSize: DECODED_BYTES,
    sizeCalculation: (p) =>
      Math.max(1, p instanceof DensePostings ? p.bytes : p.docs.length * DECODED_POSTING_BYTES),
  })
  readonly #stats: FieldStats
  /** The bits made with the snapshot (`prebuiltDense`), by term number. */
  readonly #prebuilt: Map<number, DensePostings>
  /** Per-document space for one-word searches (9 bytes a document) and the others' candidates, made on first use. */
  #scratch: SearchScratch | undefined
  /** Whether a search holds `#scratch` (`#lease`). */
  #leased = false
  /** The candidates' part of it: nothing is made until a search asks (candidate-space.ts). */
  readonly #candidates: CandidateSpace
  readonly #postingsOf = (term: number): Postings =>
    (this.#decoded.get(term) as Postings | undefined) ?? this.#decode(term)
  /**
   * For searches of several words (match-plan.ts), which test documents against each word: a word
   * held by more than DENSE_SHARE of the documents is read as bits, a sixth of its decoded arrays
   * at half the documents, so that the cache holds the common words of many queries.
   */
  readonly #termPostingsOf = (term: number): TermPostings =>
    this.#keptTermPostings(term) ??
    (this.#readsAsArrays(term) ? this.#decode(term) : this.#decodeDense(term, this.#data.frequency[term]!))
  /**
   * For one-word searches, which read each word straight through (match-one-group.ts): a word whose
   * decoded postings would take more than LARGEST_DECODED is read from its encoded bytes
   * instead, so a broad word asked with a filter neither decodes 6 MB (at 1 000 000 records) nor
   * pushes the other words out of the cache.
   */
  readonly #runOf = (term: number): Postings | EncodedRun => this.#keptRun(term) ?? this.#decode(term)

  /** Whether a search of several words reads `term` as decoded arrays (a rarer word) rather than as bits. */
  #readsAsArrays(term: number): boolean {
    return this.#data.frequency[term]! * DENSE_SHARE < this.#stats.titleLength.length
  }

  /** What `#termPostingsOf` reads for `term` without decoding anything; undefined when it must decode. */
  #keptTermPostings(term: number): TermPostings | undefined {
    if (this.#readsAsArrays(term)) return this.#decoded.get(term)
    return this.#prebuilt.get(term) ?? this.#decoded.get(denseKey(term)) ?? this.#decoded.get(term)
  }

  /** What `#runOf` reads for `term` without decoding anything; undefined when it must decode. */
  #keptRun(term: number): Postings | EncodedRun | undefined {
    const kept = this.#decoded.get(term) as Postings | undefined
    if (kept !== undefined) return kept
    const count = this.#data.frequency[term]!
    if (count * DECODED_POSTING_BYTES <= LARGEST_DECODED) return undefined
    return { bytes: this.#data.postings, at: this.#data.termStart[term]!, count }
  }

  constructor(data: TextIndexData) {
    this.#data = data
    this.#termIds = new Map(data.terms.map((term, id) => [term, id]))
    this.#candidates = new CandidateSpace(data.titleLength.length)
    const dense = data.dense
    this.#prebuilt = new Map(
      dense === undefined
        ? []
        : Array.from(dense.terms, (term, i) => [term, DensePostings.fromParts(dense.words[i]!)]),
    )
    this.#stats = {
      titleLength: data.titleLength,
      bodyLength: data.bodyLength,
      averageTitle: data.averageTitle,
      averageBody: data.averageBody,
    }
  }

  #decode(term: number): Postings {
    const postings = decodePostings(
      this.#data.postings,
      this.#data.termStart[term]!,
      this.#data.frequency[term]!,
    )
    this.#decoded.set(term, postings)
    return postings
  }

  /** The most postings one word's bits were built from on this index, on the thread searching (`prebuiltDense` spares the broadest). */
  largestDenseDecode = 0

  #decodeDense(term: number, count: number): DensePostings {
    if (count > this.largestDenseDecode) this.largestDenseDecode = count
    const run = { bytes: this.#data.postings, at: this.#data.termStart[term]!, count }
    const dense = DensePostings.fromRun(run, this.#stats.titleLength.length)
    this.#decoded.set(denseKey(term), dense)
    return dense
  }

  /**
   * What a search of these groups would decode before it could answer, as steps of about
   * READ_AHEAD_POSTINGS postings each, for a caller to run one a turn (searcher.ts, `readAhead`):
   * reading a query's cold words is then spread over turns instead of holding the serving thread
   * for all of them at once. Each step reads a word as the search will (`search`, `searchBest`), so
   * the search finds it kept, and an answer cannot change. Empty when every word is kept already,
   * or when the search reads its one group straight through (`#runOf`, a word too large to keep).
   */
  readAhead(groups: readonly TermGroup[], bestMatch = false): (() => void)[] {
    const onlyGroup = groups.length === 1 && isFlatGroup(groups[0]!)
    const steps: (() => void)[] = []
    if (this.#scratch === undefined) steps.push(() => void this.#space())
    if (!onlyGroup) steps.push(...this.#candidates.firstUseSteps(bestMatch))
    const cold: number[] = []
    const seen = new Set<number>()
    for (const group of groups)
      for (const option of group)
        for (const slot of option.slots)
          for (const { term } of slot) {
            if (seen.has(term)) continue
            seen.add(term)
            if ((onlyGroup ? this.#keptRun(term) : this.#keptTermPostings(term)) === undefined)
              cold.push(term)
          }
    let batch: number[] = []
    let postings = 0
    const close = () => {
      const terms = batch
      steps.push(() => {
        for (const term of terms) void (onlyGroup ? this.#runOf(term) : this.#termPostingsOf(term))
      })
      batch = []
      postings = 0
    }
    for (const term of cold) {
      const count = this.#data.frequency[term]!
      if (batch.length > 0 && postings + count > READ_AHEAD_POSTINGS) close()
      batch.push(term)
      postings += count
    }
    if (batch.length > 0) close()
    return steps
  }

  /** The per-document space of the searches, made on first use. */
  #space(): SearchScratch {
    return (this.#scratch ??= {
      group: new GroupScratch(this.#stats.titleLength.length),
      candidates: this.#candidates,
    })
  }

  /** Distinct terms indexed. */
  get terms(): number {
    return this.#data.terms.length
  }

  /** The term number of an indexed word, or undefined when no document holds it. */
  termId(word: string): number | undefined {
    return this.#termIds.get(word)
  }

  /** The indexed word of a term number. */
  term(id: number): string {
    return this.#data.terms[id]!
  }

  /** Documents holding the term. */
  frequency(id: number): number {
    return this.#data.frequency[id]!
  }

  /** Terms held by at least `minDocuments` documents, the most frequent first, at most `max`. */
  mostFrequent(minDocuments: number, max: number): number[] {
    const { frequency } = this.#data
    const terms: number[] = []
    for (let t = 0; t < frequency.length; t++) if (frequency[t]! >= minDocuments) terms.push(t)
    return terms.sort((a, b) => frequency[b]! - frequency[a]! || a - b).slice(0, max)
  }

  /** The documents holding the term, ascending. */
  docs(id: number): Uint32Array {
    return this.#postingsOf(id).docs
  }

  /** The first `count` documents holding the term (to show the word as written there). */
  firstDocuments(id: number, count: number): Uint32Array {
    const cached = this.#decoded.peek(id) as Postings | undefined
    if (cached !== undefined) return cached.docs.subarray(0, count)
    return decodePostings(
      this.#data.postings,
      this.#data.termStart[id]!,
      Math.min(count, this.#data.frequency[id]!),
    ).docs
  }

  /**
   * Documents holding every group (see match.ts), filtered by `keep`, in relevance order: more
   * groups in the title first, then `rankClass`, then BM25, then `tieRank`. Returns the total and
   * the documents at [offset, offset+limit).
   */
  search(request: MatchRequest, ranking: Ranking): { total: number; docs: number[] } {
    return runThrough(this.searchInSteps(request, ranking))
  }

  /**
   * `search`, yielding between slices of its evaluation (steps.ts). While it is suspended, the
   * work spaces are its own: a search run meanwhile makes new ones (`#lease`).
   */
  *searchInSteps(request: MatchRequest, ranking: Ranking): Steps<{ total: number; docs: number[] }> {
    const scratch = this.#lease()
    try {
      return yield* matchGroupsInSteps(
        this.#termPostingsOf,
        this.#stats,
        ranking,
        request,
        scratch,
        this.#runOf,
      )
    } finally {
      if (scratch !== undefined) this.#leased = false
    }
  }

  /**
   * The answers of one group under every filter, in one pass (matchOneGroupByFilter), each as
   * `search` would give it with that filter; undefined for a group search answers otherwise (a phrase).
   */
  searchByFilter(
    group: TermGroup,
    ranking: Ranking,
    columns: FilterColumns,
    size: number,
  ): AnswersByFilter<{ total: number; docs: number[] }> | undefined {
    if (!isFlatGroup(group)) return undefined
    return matchOneGroupByFilter(group, this.#runOf, this.#stats, ranking, columns, size, this.#space().group)
  }

  /** The best match of the groups (best-match.ts): the documents holding the most of them, ranked. */
  searchBest(request: BestMatchRequest, ranking: Ranking): BestMatchAnswer {
    return runThrough(this.searchBestInSteps(request, ranking))
  }

  /** `searchBest`, yielding between slices of its all-words searches, with its own work spaces meanwhile (as `searchInSteps`). */
  *searchBestInSteps(request: BestMatchRequest, ranking: Ranking): Steps<BestMatchAnswer> {
    const scratch = this.#lease()
    try {
      return yield* matchBestInSteps(this.#termPostingsOf, this.#stats, ranking, request, scratch?.candidates)
    } finally {
      if (scratch !== undefined) this.#leased = false
    }
  }

  /**
   * The work spaces for a search, or undefined when a search suspended between its steps holds
   * them (the evaluators then make their own): they are per document, and a search that found them
   * half-written by another would answer wrong.
   */
  #lease(): SearchScratch | undefined {
    if (this.#leased) return undefined
    this.#leased = true
    return this.#space()
  }
}

/**
 * The bits of the words searches of several words read most, to make with the snapshot: the most
 * frequent words held by at least one document in DENSE_SHARE and PREBUILT_MIN_DOCUMENTS, but for
 * the words a French query ignores (stop words and fillers), up to PREBUILT_BYTES (tests give
 * other bounds). Each is what a search would build from the word's run (`DensePostings.fromRun`),
 * so an answer cannot change.
 */
export function prebuiltDense(
  data: TextIndexData,
  { minDocuments = PREBUILT_MIN_DOCUMENTS, maxBytes = PREBUILT_BYTES } = {},
): PrebuiltDense {
  const documents = data.titleLength.length
  const { frequency } = data
  const least = Math.max(minDocuments, Math.ceil(documents / DENSE_SHARE))
  const candidates: number[] = []
  for (let t = 0; t < frequency.length; t++)
    if (frequency[t]! >= least && !isIgnorable(data.terms[t]!)) candidates.push(t)
  candidates.sort((a, b) => frequency[b]! - frequency[a]! || a - b)
  const terms: number[] = []
  const words: DenseParts[] = []
  let bytes = 0
  for (const term of candidates) {
    const run = { bytes: data.postings, at: data.termStart[term]!, count: frequency[term]! }
    const dense = DensePostings.fromRun(run, documents)
    if (bytes + dense.bytes > maxBytes) break
    bytes += dense.bytes
    terms.push(term)
    words.push(dense.parts())
  }
  return { terms: Uint32Array.from(terms), words }
}
