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
import { matchBest, type BestMatchAnswer, type BestMatchRequest } from './best-match.js'
import {
  CandidateSpace,
  GroupScratch,
  matchGroups,
  type FieldStats,
  type MatchRequest,
  type Ranking,
  type SearchScratch,
} from './match.js'
import { LRUCache } from 'lru-cache'
import type { Postings } from './postings.js'
import { DECODED_POSTING_BYTES, decodePostings, type EncodedRun } from './postings-codec.js'
import type { TextIndexData } from './snapshot-data.js'

/**
 * Decoded postings kept, in bytes (6 a posting): the frequent words', which queries with a filter
 * need again and again (a one-word query without one is answered from the build's prepared answers)
 * and take the longest to decode. At 1 000 000 records the broadest word alone is 6 MB, decoded in a
 * few milliseconds: this keeps the two or three broadest, or every word of a 100 000-record
 * snapshot that 16 MiB can hold. It was 64 MiB, a cache that alone took the service's memory under
 * queries past 2 GiB at 1 000 000 records (docs/scale.md).
 */
const DECODED_BYTES = 16 * 2 ** 20

export class TextIndex {
  readonly #data: TextIndexData
  readonly #termIds: Map<string, number>
  /** The postings queries used most recently, decoded. */
  readonly #decoded = new LRUCache<number, Postings>({
    maxSize: DECODED_BYTES,
    sizeCalculation: (p) => Math.max(1, p.docs.length * DECODED_POSTING_BYTES),
  })
  readonly #stats: FieldStats
  /** Per-document space for one-word searches (9 bytes a document) and the others' candidates, made on first use. */
  #scratch: SearchScratch | undefined
  readonly #postingsOf = (term: number): Postings => this.#decoded.get(term) ?? this.#decode(term)
  /**
   * For one-word searches, which read each word straight through (match-one-group.ts): a word whose
   * decoded postings would take more than an eighth of the cache is read from its encoded bytes
   * instead, so a broad word asked with a filter neither decodes 6 MB (at 1 000 000 records) nor
   * pushes the other words out of the cache.
   */
  readonly #runOf = (term: number): Postings | EncodedRun => {
    const count = this.#data.frequency[term]!
    if (count * DECODED_POSTING_BYTES <= DECODED_BYTES / 8) return this.#postingsOf(term)
    return this.#decoded.get(term) ?? { bytes: this.#data.postings, at: this.#data.termStart[term]!, count }
  }

  constructor(data: TextIndexData) {
    this.#data = data
    this.#termIds = new Map(data.terms.map((term, id) => [term, id]))
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
    const cached = this.#decoded.peek(id)
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
    const documentCount = this.#stats.titleLength.length
    this.#scratch ??= {
      group: new GroupScratch(documentCount),
      candidates: new CandidateSpace(documentCount),
    }
    return matchGroups(this.#postingsOf, this.#stats, ranking, request, this.#scratch, this.#runOf)
  }

  /** The best match of the groups (best-match.ts): the documents holding the most of them, ranked. */
  searchBest(request: BestMatchRequest, ranking: Ranking): BestMatchAnswer {
    const documentCount = this.#stats.titleLength.length
    this.#scratch ??= {
      group: new GroupScratch(documentCount),
      candidates: new CandidateSpace(documentCount),
    }
    return matchBest(this.#postingsOf, this.#stats, ranking, request, this.#scratch.candidates)
  }
}
