/**
 * Best match's counting step on bits (best-match.ts), for queries of common words: per group, the
 * documents holding it and those whose title holds it, as rows of a bit a document; from them, per
 * document, a level — twice the groups it holds plus those of them its title holds — summed 32
 * documents at a time in bit-sliced counters (bit k of 32 documents' levels in one word, added as a
 * circuit adds). The level bounds what a document weighs (no group weighs more than the heaviest, a
 * title adds half), so documents are evaluated level by level, highest first, until no lower level
 * can reach the page. Counting a group costs a pass of N/32 words, where reading it term at a time
 * costs a step per document holding it: hundreds of thousands for each common word at 1 000 000
 * records. The same rows give each document met an exact bound, and how many documents hold a set
 * of groups.
 */
import type { CandidateSpace } from './candidate-space.js'
import { countBits, lowestDoc, popcount } from './dense-postings.js'
import { TITLE_COVER, type Plan } from './match-plan.js'
import { runThrough, SliceBudget, type Steps } from './steps.js'

/**
 * What holding a group, and holding it in the title, add to a document's level: a title adds half
 * of what holding the group does, as it adds half of the group's weight (TITLE_COVER).
 */
const HELD_LEVEL = 2
const TITLE_LEVEL = 1
/** Bits of a level: up to 127, for the 32 groups a best match weighs at most (3 × 32). */
const PLANES = 7

export class CoverageLevels {
  /** The highest level a document may have: every group, each in its title. */
  readonly top: number
  /** Words of a row: a word per 32 documents. */
  readonly words: number
  readonly #plan: Plan
  readonly #groups: number
  /**
   * Rows of `words` words: per group, the documents holding it, then per group the documents whose
   * title holds one of its words (read once the levels are needed); two rows of work space; per
   * word, the highest level of its documents; then the levels' bits, word by word (PLANES words
   * each: bit k of the levels of its 32 documents). 26 rows for 8 groups: 3.2 MiB at 1 000 000.
   */
  readonly #rows: Uint32Array
  /** Where the highest level of each word, and the levels' bits, start in `#rows`. */
  readonly #wordTopAt: number
  readonly #planesAt: number
  /** The most a group weighs outside a title. */
  readonly #heaviest: number
  #counted = false

  /** The levels of `plan`'s documents, every group's holders read at once (tests; a search reads them in steps). */
  static of(plan: Plan, space?: CandidateSpace): CoverageLevels {
    return runThrough(CoverageLevels.inSteps(plan, space, new SliceBudget(Infinity)))
  }

  /** The levels of `plan`'s documents, yielding when `budget`'s slice is spent (steps.ts). */
  static *inSteps(plan: Plan, space: CandidateSpace | undefined, budget: SliceBudget): Steps<CoverageLevels> {
    const levels = new CoverageLevels(plan, space, budget)
    const work = { option: levels.#row(2 * levels.#groups), slot: levels.#row(2 * levels.#groups + 1) }
    for (let g = 0; g < levels.#groups; g++)
      if (budget.spend(plan.holdersInto(g, levels.#row(g), work))) yield
    return levels
  }

  /** The budget the levels are read with: counting them spends it too. */
  readonly #budget: SliceBudget

  private constructor(plan: Plan, space: CandidateSpace | undefined, budget: SliceBudget) {
    this.#budget = budget
    this.#plan = plan
    const groups = (this.#groups = plan.groupCount)
    const words = (this.words = (plan.documentCount + 31) >>> 5)
    this.top = (HELD_LEVEL + TITLE_LEVEL) * groups
    this.#wordTopAt = (2 * groups + 2) * words
    this.#planesAt = this.#wordTopAt + words
    const length = this.#planesAt + PLANES * words
    this.#rows = space?.bitRows(length) ?? new Uint32Array(length)
    let heaviest = 0
    for (let g = 0; g < groups; g++) heaviest = Math.max(heaviest, plan.plainWeight(g))
    this.#heaviest = heaviest
  }

  #row(r: number): Uint32Array {
    return this.#rows.subarray(r * this.words, (r + 1) * this.words)
  }

  /**
   * The documents holding every group whose bit (its position in the query, as in a best match's
   * masks) is in `mask`, a mask of at least one of the plan's groups: a row valid until the next call.
   */
  holdersOf(mask: number): Uint32Array {
    const into = this.#row(2 * this.#groups)
    let first = true
    for (let g = 0; g < this.#groups; g++) {
      if ((this.#plan.bitOf(g) & mask) === 0) continue
      const holders = this.#row(g)
      if (first) into.set(holders)
      else for (let w = 0; w < into.length; w++) into[w] = into[w]! & holders[w]!
      first = false
    }
    return into
  }

  /** How many documents kept by `keep` hold every group of `mask` (see `holdersOf`). */
  holding(mask: number, keep: ((doc: number) => boolean) | undefined): number {
    const holders = this.holdersOf(mask)
    if (keep === undefined) return countBits(holders)
    let count = 0
    for (let w = 0; w < holders.length; w++)
      for (let b = holders[w]!; b !== 0; b = (b & (b - 1)) >>> 0) if (keep(lowestDoc(w, b))) count++
    return count
  }

  /**
   * Reads the titles, adds up every document's level, a word of 32 documents at a time, and notes
   * the highest level of each word; done once, on first need (a query whose all-words search fills
   * the page needs only the documents of each group). Yields when the slice of the budget the levels
   * were read with is spent; `wordsReaching` runs it through if no search did first.
   */
  *countInSteps(): Steps<void> {
    if (this.#counted) return
    const rows = this.#rows
    const words = this.words
    const groups = this.#groups
    const budget = this.#budget
    for (let g = 0; g < groups; g++) {
      const titled = this.#row(groups + g)
      titled.fill(0)
      if (budget.spend(words + this.#plan.titledInto(g, titled))) yield
    }
    // Words added up in a slice: a unit a group a word.
    const chunk = Math.max(1, Math.min(words, Math.floor(budget.size / groups)))
    for (let from = 0; from < words; from += chunk) {
      const to = Math.min(words, from + chunk)
      for (let w = from; w < to; w++) {
        // Bits 0 to 6 of the 32 documents' levels, added to as a ripple-carry adder adds, each
        // group's documents at bit 1, those with the group in their title at bit 0.
        let b0 = 0
        let b1 = 0
        let b2 = 0
        let b3 = 0
        let b4 = 0
        let b5 = 0
        let b6 = 0
        for (let g = 0; g < groups; g++) {
          const held = rows[g * words + w]!
          if (held === 0) continue
          let carry = b1 & held
          b1 ^= held
          const titled = rows[(groups + g) * words + w]! & held
          if (titled !== 0) {
            const low = b0 & titled
            b0 ^= titled
            carry |= b1 & low
            b1 ^= low
          }
          let next = b2 & carry
          b2 ^= carry
          carry = b3 & next
          b3 ^= next
          next = b4 & carry
          b4 ^= carry
          carry = b5 & next
          b5 ^= next
          b6 ^= carry
        }
        const at = this.#planesAt + w * PLANES
        rows[at] = b0
        rows[at + 1] = b1
        rows[at + 2] = b2
        rows[at + 3] = b3
        rows[at + 4] = b4
        rows[at + 5] = b5
        rows[at + 6] = b6
        rows[this.#wordTopAt + w] = highest(rows, at)
      }
      if (budget.spend((to - from) * groups)) yield
    }
    this.#counted = true
  }

  /**
   * The words (of 32 documents) holding a document whose level is at least `low`, ascending: a row
   * valid until the next call. The first call counts the levels: `within` and `bound` read them.
   */
  wordsReaching(low: number): Uint32Array {
    runThrough(this.countInSteps())
    const rows = this.#rows
    const into = this.#row(2 * this.#groups + 1)
    let n = 0
    for (let w = 0, at = this.#wordTopAt; w < this.words; w++, at++) if (rows[at]! >= low) into[n++] = w
    return into.subarray(0, n)
  }

  /** What a document at `level` weighs at most. */
  reach(level: number): number {
    return (this.#heaviest * level) / HELD_LEVEL
  }

  /** The documents of word `w` (bit i: document 32w + i) whose level is in [low, high]. */
  within(w: number, low: number, high: number): number {
    return (this.#atLeast(w, low) & ~this.#atLeast(w, high + 1)) >>> 0
  }

  /** The documents of word `w` whose level is at least `level`: compared bit by bit, from the highest. */
  #atLeast(w: number, level: number): number {
    if (level <= 0) return 0xffffffff
    if (level > this.top) return 0
    const rows = this.#rows
    const at = this.#planesAt + w * PLANES
    let above = 0
    let equal = 0xffffffff
    for (let k = PLANES - 1; k >= 0; k--) {
      const bit = rows[at + k]!
      if (((level >>> k) & 1) === 1) equal &= bit
      else {
        above |= equal & bit
        equal &= ~bit
      }
    }
    return (above | equal) >>> 0
  }

  /** How many documents have a level in [low, high]. */
  countWithin(low: number, high: number): number {
    let n = 0
    for (const w of this.wordsReaching(low)) n += popcount(this.within(w, low, high))
    return n
  }

  /**
   * What `doc` weighs at most: the groups it holds, times TITLE_COVER for those its title holds,
   * summed in the order `covers` sums them (so that a document whose title counts are those of its
   * groups gets the very coverage `covers` computes).
   */
  bound(doc: number): number {
    const groups = this.#groups
    const rows = this.#rows
    const words = this.words
    const at = doc >>> 5
    const bit = 1 << (doc & 31)
    let bound = 0
    for (let g = 0; g < groups; g++) {
      if ((rows[g * words + at]! & bit) === 0) continue
      const titled = (rows[(groups + g) * words + at]! & bit) !== 0
      bound += this.#plan.plainWeight(g) * (titled ? TITLE_COVER : 1)
    }
    return bound
  }
}

/** The highest level of a word's documents, from its level bits at `at`: kept from the highest bit down. */
function highest(rows: Uint32Array, at: number): number {
  let having = 0xffffffff
  let top = 0
  for (let k = PLANES - 1; k >= 0; k--) {
    const with1 = having & rows[at + k]!
    if (with1 === 0) continue
    having = with1
    top |= 1 << k
  }
  return top
}
