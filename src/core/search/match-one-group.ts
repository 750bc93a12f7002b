/**
 * A search for one word group whose alternatives are single words (the word, its forms, its
 * aliases; no phrase): the broad queries, whose word most records may hold. The Plan (match-plan.ts)
 * walks candidates one document at a time with a galloping search per word; for one group that is a
 * seek per word per document, 60 ms for "conduite" at 1 000 000 records. Here each word's postings
 * are read once, straight through, into per-document scores, and the page is kept by a bounded heap
 * compared inline: a few milliseconds for the same answer. The result is the Plan's, to the bit (the
 * same arithmetic in the same order); a differential test compares the two.
 *
 * A word whose postings are not decoded already (`runOf`) is read from its encoded bytes a block at
 * a time: a broad word asked with a filter is read twice per search and never needs its whole
 * decoded array, which at 1 000 000 records is 6 MB to allocate, fill and keep (docs/scale.md).
 */
import { pageBacked } from './growable.js'
import { K1, B, TITLE_BOOST, type FieldStats, type Ranking, type TermGroup } from './match-plan.js'
import type { Postings } from './postings.js'
import { decodeInBlocks, type EncodedRun } from './postings-codec.js'

/** A word's postings decoded if they are at hand, encoded otherwise. */
export type RunOf = (term: number) => Postings | EncodedRun

/** Postings decoded per block of an encoded run. */
const BLOCK_POSTINGS = 16_384

/**
 * Per-document work space of one index, reused by every search (searches run one at a time); 9 bytes
 * a document, page-backed (growable.ts) so that it goes back to the system with its snapshot.
 */
export class GroupScratch {
  /** Best score per document so far; -1 for a document not reached (restored after each search). */
  readonly scores: Float64Array
  /** 1 when one of the group's words is in the document's title. */
  readonly titled: Uint8Array
  /** Where encoded postings are decoded, a block at a time (`blockPostings` of them, 6 bytes each). */
  readonly block: Postings
  #clean = true

  constructor(documentCount: number, blockPostings = BLOCK_POSTINGS) {
    this.scores = pageBacked(Float64Array, documentCount).fill(-1)
    this.titled = pageBacked(Uint8Array, documentCount)
    this.block = {
      docs: new Uint32Array(blockPostings),
      titleTf: new Uint8Array(blockPostings),
      bodyTf: new Uint8Array(blockPostings),
    }
  }

  /** Marks the space in use; restores it first if a search that used it did not finish. */
  take(): this {
    if (!this.#clean) {
      this.scores.fill(-1)
      this.titled.fill(0)
    }
    this.#clean = false
    return this
  }

  release(): void {
    this.#clean = true
  }
}

export type OneGroupRequest = {
  keep: ((doc: number) => boolean) | undefined
  countOnly?: boolean
  offset: number
  limit: number
}

/** Whether `group` is one this module answers: every alternative one slot (no phrase). */
export function isFlatGroup(group: TermGroup): boolean {
  return group.every((option) => option.slots.length <= 1)
}

/**
 * Documents holding a word of `group`, filtered by `keep`, ranked as matchGroupsInSteps ranks them: title
 * first, then `rankClass`, then BM25 (the best of the group's words), then `tieRank`.
 */
export function matchOneGroup(
  group: TermGroup,
  postingsOf: RunOf,
  stats: FieldStats,
  ranking: Ranking,
  request: OneGroupRequest,
  scratch: GroupScratch,
): { total: number; docs: number[] } {
  const page = new Page(request.countOnly ? 0 : request.offset + request.limit, ranking)
  const keep = request.keep
  let total = 0
  eachScored(group, postingsOf, stats, scratch, (doc, tier, score) => {
    if (keep !== undefined && !keep(doc)) return
    total++
    page.offer(doc, tier, score)
  })
  return { total, docs: request.countOnly ? [] : page.sorted().slice(request.offset) }
}

/** The filter columns of the documents, for matchOneGroupByFilter: their kind number and region. */
export type FilterColumns = { kinds: Uint8Array; france: Uint8Array; kindCount: number }

/** One answer per filter: none, the region, each kind, each kind in the region. */
export type AnswersByFilter<T> = { all: T; france: T; byKind: T[]; byKindInFrance: T[] }

/**
 * The answers of `group` under every filter at once (none, the region, each kind, each kind in the
 * region), each ranked as matchOneGroup ranks it with that filter, in one pass over the group's
 * postings: a build prepares a broad word's filtered answers (prepared-answers.ts) for about the cost
 * of one search, not one per filter. The filters are read from the columns, not through a `keep`
 * per filter: 20 calls per document were most of the cost.
 */
export function matchOneGroupByFilter(
  group: TermGroup,
  postingsOf: RunOf,
  stats: FieldStats,
  ranking: Ranking,
  { kinds, france, kindCount }: FilterColumns,
  size: number,
  scratch: GroupScratch,
): AnswersByFilter<{ total: number; docs: number[] }> {
  const page = () => ({ page: new Page(size, ranking), total: 0 })
  const all = page()
  const inFrance = page()
  const byKind = Array.from({ length: kindCount }, page)
  const byKindInFrance = Array.from({ length: kindCount }, page)
  const offer = (entry: { page: Page; total: number }, doc: number, tier: number, score: number) => {
    entry.total++
    entry.page.offer(doc, tier, score)
  }
  eachScored(group, postingsOf, stats, scratch, (doc, tier, score) => {
    const kind = kinds[doc]!
    offer(all, doc, tier, score)
    offer(byKind[kind]!, doc, tier, score)
    if (france[doc] === 1) {
      offer(inFrance, doc, tier, score)
      offer(byKindInFrance[kind]!, doc, tier, score)
    }
  })
  const answer = ({ page, total }: { page: Page; total: number }) => ({ total, docs: page.sorted() })
  return {
    all: answer(all),
    france: answer(inFrance),
    byKind: byKind.map(answer),
    byKindInFrance: byKindInFrance.map(answer),
  }
}

/** Hands `take` every document holding a word of `group`, once, with its tier (titled) and best score. */
function eachScored(
  group: TermGroup,
  postingsOf: RunOf,
  stats: FieldStats,
  scratch: GroupScratch,
  take: (doc: number, tier: number, score: number) => void,
): void {
  const { titleLength, bodyLength, averageTitle, averageBody } = stats
  const documentCount = titleLength.length
  // As the Plan does: alternatives with an empty slot are left out.
  const options = group.filter(
    (option) => option.slots.length > 0 && option.slots.every((slot) => slot.length > 0),
  )
  const lists = options.flatMap((option) =>
    option.slots[0]!.map(({ term, weight }) => ({
      postings: postingsOf(term),
      weight,
      optionWeight: option.weight,
    })),
  )
  const { scores, titled, block } = scratch.take()
  for (const { postings, weight: termWeight, optionWeight } of lists) {
    const frequency = 'count' in postings ? postings.count : postings.docs.length
    // Multiplied as the Plan multiplies it (match-plan.ts): the two weights first, then idf.
    const weight =
      termWeight * optionWeight * Math.log(1 + (documentCount - frequency + 0.5) / (frequency + 0.5))
    eachBlock(postings, block, ({ docs, titleTf, bodyTf }, length) => {
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!
        const title = titleTf[i]!
        const body = bodyTf[i]!
        const titleNorm = K1 * (1 - B + (B * titleLength[doc]!) / averageTitle)
        const bodyNorm = K1 * (1 - B + (B * bodyLength[doc]!) / averageBody)
        const bm25 =
          (TITLE_BOOST * title * (K1 + 1)) / (title + titleNorm) + (body * (K1 + 1)) / (body + bodyNorm)
        const score = weight * bm25
        if (score > scores[doc]!) scores[doc] = score
        if (title > 0) titled[doc] = 1
      }
    })
  }
  // Every document reached, once: its score is restored to -1 as it is taken, which marks it seen.
  for (const { postings } of lists) {
    eachBlock(postings, block, ({ docs }, length) => {
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!
        const score = scores[doc]!
        if (score < 0) continue
        const tier = titled[doc]!
        scores[doc] = -1
        titled[doc] = 0
        take(doc, tier, score)
      }
    })
  }
  scratch.release()
}

/** Hands `each` a word's postings: decoded ones whole, an encoded run a block at a time through `block`. */
function eachBlock(
  postings: Postings | EncodedRun,
  block: Postings,
  each: (postings: Postings, length: number) => void,
): void {
  if ('count' in postings) decodeInBlocks(postings, block, (length) => each(block, length))
  else each(postings, postings.docs.length)
}

/**
 * The best `size` documents offered, in a bounded max-heap whose root is the worst kept, so most
 * documents are refused by one comparison with it. Inline over typed arrays: top-k.ts's generic heap
 * calls a comparator per step, which at a million offers is most of the search.
 */
class Page {
  readonly #docs: Int32Array
  readonly #tiers: Uint8Array
  readonly #scores: Float64Array
  #length = 0
  readonly #rankClass: Uint8Array
  readonly #tieRank: Uint32Array

  constructor(
    readonly size: number,
    ranking: Ranking,
  ) {
    this.#docs = new Int32Array(size)
    this.#tiers = new Uint8Array(size)
    this.#scores = new Float64Array(size)
    this.#rankClass = ranking.rankClass
    this.#tieRank = ranking.tieRank
  }

  /** Whether (tier, doc, score) ranks before the kept entry at `k`. */
  #before(tier: number, doc: number, score: number, k: number): boolean {
    const other = this.#docs[k]!
    if (tier !== this.#tiers[k]) return tier > this.#tiers[k]!
    const rank = this.#rankClass[doc]!
    const otherRank = this.#rankClass[other]!
    if (rank !== otherRank) return rank < otherRank
    if (score !== this.#scores[k]) return score > this.#scores[k]!
    return this.#tieRank[doc]! < this.#tieRank[other]!
  }

  offer(doc: number, tier: number, score: number): void {
    if (this.size === 0) return
    if (this.#length < this.size) {
      // Sift up: the new entry rises while it ranks after its parent (the root is the worst).
      let k = this.#length++
      while (k > 0) {
        const parent = (k - 1) >> 1
        if (this.#before(tier, doc, score, parent)) break
        this.#set(k, parent)
        k = parent
      }
      this.#put(k, doc, tier, score)
      return
    }
    if (!this.#before(tier, doc, score, 0)) return
    // Replace the root and sift down: children that rank after the entry move up.
    let k = 0
    for (;;) {
      const left = 2 * k + 1
      if (left >= this.#length) break
      const right = left + 1
      const worse = right < this.#length && !this.#beforeKept(right, left) ? right : left
      if (this.#before(tier, doc, score, worse)) {
        this.#set(k, worse)
        k = worse
      } else break
    }
    this.#put(k, doc, tier, score)
  }

  /** Whether kept entry `a` ranks before kept entry `b`. */
  #beforeKept(a: number, b: number): boolean {
    return this.#before(this.#tiers[a]!, this.#docs[a]!, this.#scores[a]!, b)
  }

  #set(to: number, from: number): void {
    this.#docs[to] = this.#docs[from]!
    this.#tiers[to] = this.#tiers[from]!
    this.#scores[to] = this.#scores[from]!
  }

  #put(k: number, doc: number, tier: number, score: number): void {
    this.#docs[k] = doc
    this.#tiers[k] = tier
    this.#scores[k] = score
  }

  /** The kept documents, best first. */
  sorted(): number[] {
    const order = Array.from({ length: this.#length }, (_, k) => k)
    order.sort((a, b) => (this.#beforeKept(a, b) ? -1 : 1))
    return order.map((k) => this.#docs[k]!)
  }
}
