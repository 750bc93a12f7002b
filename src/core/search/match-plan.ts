/**
 * A search laid out for the per-document loop of matchWithPlanInSteps (match.ts): which documents to try,
 * and whether a document satisfies every word group, with its title tier and BM25 score.
 */
import type { CandidateSpace } from './candidate-space.js'
import { DensePostings, lengthOf, lowestDoc, setBit, type TermPostingsOf } from './dense-postings.js'
import { runThrough, SliceBudget, type Steps } from './steps.js'
import { seek, unionOfDocs } from './postings.js'

export type WeightedTerm = { readonly term: number; readonly weight: number }
export type Alternative = { readonly slots: readonly (readonly WeightedTerm[])[]; readonly weight: number }
/**
 * One significant word of the query: a record must satisfy one of its alternatives. `words` is how
 * many words of the query it was read from when more than one (a phrase with aliases, « panneau rond
 * bleu », three): best match weighs it more (PHRASE_SHARE).
 */
export type TermGroup = readonly Alternative[] & { readonly words?: number }

/** Field lengths for BM25: per document, and their averages. */
export type FieldStats = {
  titleLength: Float32Array
  bodyLength: Float32Array
  averageTitle: number
  averageBody: number
}

/** How equally good matches are ordered: `rankClass` ascending (per document), then score, then `tieRank`. */
export type Ranking = { rankClass: Uint8Array; tieRank: Uint32Array }

/** What a plan finds in a document holding every group (`Plan.matches`): its groups in the title, and its BM25 score. */
export type Match = { readonly tier: number; readonly score: number }

/**
 * What a plan finds in a document for a best match (`Plan.covers`): the groups it holds as bits of
 * the query's positions (`mask`), what they weigh together (`coverage`), and, over the groups it
 * holds, how many its title holds (`tier`) and their BM25 `score`.
 */
export type Coverage = Match & { readonly mask: number; readonly coverage: number }

/** A query group as a plan holds it: the group, its bit in the query's mask, and how many documents may hold it. */
type PlannedGroup = { group: TermGroup; bit: number; size: number }

/** Groups a best match weighs at most: a document's groups are a 32-bit mask. */
const MAX_BEST_GROUPS = 32
/** How much more a group weighs in a best match when the document's title holds it (docs/search.md, "Best match"). */
export const TITLE_COVER = 1.5
/**
 * How far below a page's floor a bound must be to prune: a bound summed in another order than the
 * coverage it bounds may differ from it in the last bits, and a document that ties the floor can
 * still enter the page on the next criteria.
 */
export const BOUND_SLACK = 1e-9
const NO_DOCS = new Uint32Array(0)
const NO_COUNTS = new Uint8Array(0)
/** The most rarity adds to a group's weight: a word in one document weighs 1 + RARITY_SHARE, a word in all of them 1. */
const RARITY_SHARE = 0.5
/**
 * What each word of the query beyond the first that a group was read from adds to its weight in a
 * best match, as a share of its rarity (docs/search.md, "Best match"). A description read as one
 * alias group (« panneau rond bleu » → « obligation », « lumière bleue allumée » → « voyant »)
 * counted as one word, so two context words beside it (« flèche blanche », « derrière le volant »)
 * outweighed the thing described. Measured at 0.35, 0.5, 0.75 and 1 on the relevance table.
 */
const PHRASE_SHARE = 0.5
/**
 * A best match's context words (docs/search.md, "Rarity against context"): a group held by at least
 * this share of the records (« voiture », « route », « conduire », « car », « road » in a catalogue
 * about driving) says what every record is about, not which one. When a query has at least
 * `CONTEXT_GROUPS` of them, each weighs `CONTEXT_WEIGHT` of its rarity in that query, so that
 * several of them no longer outweigh the one word that names the subject (« sanglier sur la route la
 * nuit en voiture »). One common word alone is left as it is: it is then as likely the subject.
 * Measured on the relevance table (803 rows): 724 → 726 right first, held out 137 of 148 either way;
 * with one common word enough, 726 and 135; at 0.3 or 0.5 of their rarity, 724.
 */
const CONTEXT_SHARE = 0.5
const CONTEXT_GROUPS = 2
const CONTEXT_WEIGHT = 0.1

/** The query's groups with their bits and sizes, rarest first: most candidates that fail, fail on the first check. */
function rarestFirst(groups: readonly TermGroup[], postings: TermPostingsOf): PlannedGroup[] {
  const size = (group: TermGroup) =>
    group.reduce(
      (n, option) =>
        n + Math.min(...option.slots.map((slot) => slot.reduce((m, t) => m + lengthOf(postings(t.term)), 0))),
      0,
    )
  return groups
    .map((group, i) => ({ group, bit: i < MAX_BEST_GROUPS ? (1 << i) >>> 0 : 0, size: size(group) }))
    .sort((a, b) => a.size - b.size)
}

/**
 * What holding a group weighs in a best match: BM25's inverse document frequency of the group (its
 * documents estimated as `size`, capped at the corpus), so a rare word counts more than a common one.
 */
function rarity(size: number, documentCount: number): number {
  const idf = (n: number) => Math.log(1 + (documentCount - n + 0.5) / (n + 0.5))
  return 1 + (RARITY_SHARE * idf(Math.min(size, documentCount))) / idf(1)
}

/** What holding a group weighs in a best match: its rarity, and more for each further query word it was read from. */
function groupWeight(group: TermGroup, size: number, documentCount: number): number {
  return rarity(size, documentCount) * (1 + PHRASE_SHARE * ((group.words ?? 1) - 1))
}

/**
 * What holding each group of a plan weighs in a best match (`groupWeight`), the query's context
 * groups (`CONTEXT_SHARE`) at `CONTEXT_WEIGHT` of it when it has at least `CONTEXT_GROUPS` of them.
 */
function groupWeights(groups: readonly PlannedGroup[], documentCount: number): number[] {
  const context = (size: number) => Math.min(size, documentCount) >= CONTEXT_SHARE * documentCount
  const contextual = groups.filter(({ size }) => context(size)).length >= CONTEXT_GROUPS
  return groups.map(
    ({ group, size }) =>
      groupWeight(group, size, documentCount) * (contextual && context(size) ? CONTEXT_WEIGHT : 1),
  )
}

/**
 * Whether some document holds `group`: a group no document holds is left out of a best match, as
 * if it had not been typed (docs/search.md, "Best match"). A one-slot alternative with postings is
 * held; a phrase's words may each be held and never together, so its documents are tried, an
 * all-words search of the group alone that stops at the first document found, a check a candidate
 * spent from `checks`.
 */
function* someDocumentHolds(
  group: TermGroup,
  postings: TermPostingsOf,
  stats: FieldStats,
  checks: SliceBudget,
): Steps<boolean> {
  const held = (option: Alternative) =>
    option.slots.length === 1 && option.slots[0]!.some(({ term }) => lengthOf(postings(term)) > 0)
  if (group.some(held)) return true
  const plan = Plan.of([group], postings, stats)
  if (plan === undefined) return false
  return yield* plan.someMatchInSteps(checks)
}

// BM25 per field, summed with the title boosted ×2: each field is normalised by its own length, so a
// word in a short title counts more than the same word in a long one.
export const K1 = 1.2
export const B = 0.75
export const TITLE_BOOST = 2

/**
 * A query laid out flat for the per-document loop: cursors (one per indexed word of each slot) in
 * parallel arrays, and the slot, alternative and group boundaries as offsets into them. The loop then
 * runs over numbers and typed arrays only, which keeps a one-word group as cheap as a plain term.
 */
export class Plan {
  readonly #docs: Uint32Array[] = []
  readonly #titleTf: Uint8Array[] = []
  readonly #bodyTf: Uint8Array[] = []
  /**
   * Per cursor: the word's postings as bits when it is one most documents hold (its arrays above are
   * then empty), tested instead of sought; undefined otherwise.
   */
  readonly #dense: (DensePostings | undefined)[] = []
  /** The counts `#find` found last. */
  #foundTitleTf = 0
  #foundBodyTf = 0
  /** Per cursor: next position to look at, and weight × idf. */
  readonly #at: Int32Array
  readonly #weight: Float64Array
  /** Slot s spans cursors [slotStart[s], slotStart[s+1]); option o spans slots [optionStart[o], …); group g options [groupStart[g], …). */
  readonly #slotStart: number[] = [0]
  readonly #optionStart: number[] = [0]
  readonly #groupStart: number[] = [0]
  readonly #stats: FieldStats
  /** Every group is one word with no other form or alias: one cursor per group, the common case. */
  readonly #simple: boolean
  /** Per group of the plan: its bit in the query's mask (1 << its position in the query), for best match. */
  readonly #groupBit: number[] = []
  /** Per group of the plan: how much holding it weighs in best match (its rarity, below), and the sum from it to the last group. */
  readonly #groupWeight: number[] = []
  readonly #weightFrom: number[] = []

  /** The query's groups the plan holds (all of them but, for best match, those no document holds). */
  readonly groups: readonly TermGroup[]

  private constructor(groups: readonly PlannedGroup[], postings: TermPostingsOf, stats: FieldStats) {
    this.groups = groups.map((g) => g.group)
    this.#stats = stats
    const documentCount = stats.titleLength.length
    const weights: number[] = []
    const groupWeightOf = groupWeights(groups, documentCount)
    for (const [g, { group, bit }] of groups.entries()) {
      this.#groupBit.push(bit)
      this.#groupWeight.push(groupWeightOf[g]!)
      for (const option of group) {
        if (option.slots.length === 0 || option.slots.some((slot) => slot.length === 0)) continue
        for (const slot of option.slots) {
          for (const { term, weight } of slot) {
            const p = postings(term)
            const length = lengthOf(p)
            if (p instanceof DensePostings) {
              this.#docs.push(NO_DOCS)
              this.#titleTf.push(NO_COUNTS)
              this.#bodyTf.push(NO_COUNTS)
              this.#dense.push(p)
            } else {
              this.#docs.push(p.docs)
              this.#titleTf.push(p.titleTf)
              this.#bodyTf.push(p.bodyTf)
              this.#dense.push(undefined)
            }
            // The word's weight and its alternative's, multiplied first: a form at 0.8 in the
            // word's own alternative and the word in an alias at 0.8 score exactly alike, so that
            // equal matches are ordered by id, not by rounding.
            weights.push(
              weight * option.weight * Math.log(1 + (documentCount - length + 0.5) / (length + 0.5)),
            )
          }
          this.#slotStart.push(this.#docs.length)
        }
        this.#optionStart.push(this.#slotStart.length - 1)
      }
      this.#groupStart.push(this.#optionStart.length - 1)
    }
    this.#at = new Int32Array(this.#docs.length)
    this.#weight = Float64Array.from(weights)
    this.#simple =
      this.#docs.length === this.#optionStart.length - 1 &&
      this.#optionStart.length === this.#groupStart.length
    for (let g = this.#groupWeight.length - 1, sum = 0; g >= 0; g--)
      this.#weightFrom[g] = sum += this.#groupWeight[g]! * TITLE_COVER
  }

  /** The plan, or undefined when a group can match nothing (so the query matches nothing). */
  static of(groups: readonly TermGroup[], postings: TermPostingsOf, stats: FieldStats): Plan | undefined {
    const plan = new Plan(rarestFirst(groups, postings), postings, stats)
    const groupCount = plan.#groupStart.length - 1
    if (groupCount === 0) return undefined
    for (let g = 0; g < groupCount; g++) if (plan.#groupStart[g] === plan.#groupStart[g + 1]) return undefined
    return plan
  }

  /**
   * The plan of a best match (best-match.ts): the groups that some document may hold, rarest first,
   * each with its bit in the query's mask; undefined when no group can match anything. At most
   * `MAX_BEST_GROUPS` groups, the rarest: a mask is a 32-bit integer.
   */
  static forBest(
    groups: readonly TermGroup[],
    postings: TermPostingsOf,
    stats: FieldStats,
  ): Plan | undefined {
    return runThrough(Plan.forBestInSteps(groups, postings, stats, new SliceBudget(Infinity)))
  }

  /** `forBest`, yielding when `checks`' slice is spent trying a phrase's documents (`someDocumentHolds`). */
  static *forBestInSteps(
    groups: readonly TermGroup[],
    postings: TermPostingsOf,
    stats: FieldStats,
    checks: SliceBudget,
  ): Steps<Plan | undefined> {
    const usable = rarestFirst(groups, postings).filter(({ group }) =>
      group.some((option) => option.slots.length > 0 && option.slots.every((slot) => slot.length > 0)),
    )
    const kept: PlannedGroup[] = []
    for (const planned of usable) {
      if (kept.length === MAX_BEST_GROUPS) break
      if (planned.size > 0 && (yield* someDocumentHolds(planned.group, postings, stats, checks)))
        kept.push(planned)
    }
    return kept.length === 0 ? undefined : new Plan(kept, postings, stats)
  }

  /** How many candidates group `g` has at most (the sizes of the lists `candidatesOf` unites). */
  candidateCount(g: number): number {
    return this.#groupLists(g).size
  }

  /** What holding group `g` weighs in a best match when the title does not hold it (its rarity). */
  plainWeight(g: number): number {
    return this.#groupWeight[g]!
  }

  /**
   * The postings lists of group `g`'s words (each alternative's, each form's): documents and title
   * counts, every document holding the word, or at least those whose title holds it.
   */
  listsOf(g: number): { docs: Uint32Array; titleTf: Uint8Array }[] {
    const first = this.#slotStart[this.#optionStart[this.#groupStart[g]!]!]!
    const end = this.#slotStart[this.#optionStart[this.#groupStart[g + 1]!]!]!
    const lists = []
    for (let c = first; c < end; c++)
      lists.push(this.#dense[c]?.titled ?? { docs: this.#docs[c]!, titleTf: this.#titleTf[c]! })
    return lists
  }

  /** Documents of the index the plan reads. */
  get documentCount(): number {
    return this.#stats.titleLength.length
  }

  /** Groups in the plan. */
  get groupCount(): number {
    return this.#groupStart.length - 1
  }

  /** The sum of the best-match weights of groups g, g+1, … (what a document holding only those can reach). */
  weightFrom(g: number): number {
    return this.#weightFrom[g] ?? 0
  }

  /** Group `g`'s bit in the query's mask (1 << its position in the query). */
  bitOf(g: number): number {
    return this.#groupBit[g]!
  }

  /** The mask of every group of the plan. */
  get fullMask(): number {
    return this.#groupBit.reduce((mask, bit) => (mask | bit) >>> 0, 0)
  }

  /** Documents that may hold group `g` (ascending): the union of each alternative's smallest slot. */
  candidatesOf(g: number, space?: CandidateSpace): Uint32Array {
    return unionOfDocs(this.#groupLists(g).lists, this.#stats.titleLength.length, space)
  }

  /** Cursors back to the start, so that documents can be taken in ascending order again. */
  rewind(): void {
    this.#at.fill(0)
  }

  /**
   * Whether cursor `c`'s word is in `doc`, its counts then in `#foundTitleTf` and `#foundBodyTf`
   * (the plan's own scratch, read right after by the caller, never seen outside): a bit test for a
   * common word (dense-postings.ts), a seek forward for the others, so documents must come in
   * ascending order between two `rewind`s. One place for the three loops that score a document
   * (`covers`, `#groupScore`, `matches`).
   */
  #find(c: number, doc: number): boolean {
    const dense = this.#dense[c]
    if (dense !== undefined) {
      if (!dense.has(doc)) return false
      this.#foundTitleTf = dense.titleTf(doc)
      this.#foundBodyTf = dense.bodyTf(doc)
      return true
    }
    const docs = this.#docs[c]!
    let at = this.#at[c]!
    if (at < docs.length && docs[at]! < doc) at = this.#at[c] = seek(docs, doc, at)
    if (at >= docs.length || docs[at] !== doc) return false
    this.#foundTitleTf = this.#titleTf[c]![at]!
    this.#foundBodyTf = this.#bodyTf[c]![at]!
    return true
  }

  /**
   * Best match: what `doc` holds of the query (see `Coverage`), its tier and score as `matches`
   * computes them for the groups it holds. Undefined as soon as the document lacks a group and the
   * groups not yet looked at cannot lift its coverage to `floor` (groups come rarest, so mostly
   * heaviest, first), or when it holds none. A document holding every group is never cut short. Documents must
   * come in ascending order (between two `rewind`s).
   */
  covers(doc: number, floor: number): Coverage | undefined {
    const { titleLength, bodyLength, averageTitle, averageBody } = this.#stats
    const weight = this.#weight
    const groupStart = this.#groupStart
    const titleNorm = K1 * (1 - B + (B * titleLength[doc]!) / averageTitle)
    const bodyNorm = K1 * (1 - B + (B * bodyLength[doc]!) / averageBody)
    let mask = 0
    let coverage = 0
    let tier = 0
    let total = 0
    let lacking = false
    for (let g = 0; g + 1 < groupStart.length; g++) {
      if (lacking && coverage + this.#weightFrom[g]! + BOUND_SLACK < floor) return undefined
      if (this.#simple) {
        // Group g is cursor g, scored in the order `matches` scores it, so a document holding every
        // group gets the very score an all-words search gives it.
        if (!this.#find(g, doc)) {
          lacking = true
          continue
        }
        const titleTf = this.#foundTitleTf
        const bodyTf = this.#foundBodyTf
        total +=
          weight[g]! *
          ((TITLE_BOOST * titleTf * (K1 + 1)) / (titleTf + titleNorm) +
            (bodyTf * (K1 + 1)) / (bodyTf + bodyNorm))
        mask = (mask | this.#groupBit[g]!) >>> 0
        coverage += this.#groupWeight[g]! * (titleTf > 0 ? TITLE_COVER : 1)
        if (titleTf > 0) tier++
        continue
      }
      const best = this.#groupScore(g, doc, titleNorm, bodyNorm)
      if (best < 0) {
        lacking = true
        continue
      }
      const title = this.#groupInTitle
      mask = (mask | this.#groupBit[g]!) >>> 0
      coverage += this.#groupWeight[g]! * (title ? TITLE_COVER : 1)
      if (title) tier++
      total += best
    }
    if (mask === 0) return undefined
    return { mask, coverage, tier, score: total }
  }

  /**
   * The score of group `g` in `doc` (the best of its alternatives, each the sum of its slots' best
   * word), or -1 when no alternative has all its slots in the document; `#groupInTitle` (scratch,
   * like `#foundTitleTf`) is then whether one alternative found has all its slots in the title.
   * Shared by `matches` and `covers`, so a document holding every group gets the same score from both.
   */
  #groupScore(g: number, doc: number, titleNorm: number, bodyNorm: number): number {
    const weight = this.#weight
    const slotStart = this.#slotStart
    const optionStart = this.#optionStart
    const groupStart = this.#groupStart
    let best = -1
    let title = false
    for (let o = groupStart[g]!; o < groupStart[g + 1]!; o++) {
      let sum = 0
      let inTitle = true
      let found = true
      for (let s = optionStart[o]!; s < optionStart[o + 1]!; s++) {
        let slotBest = -1
        let slotTitle = false
        for (let c = slotStart[s]!; c < slotStart[s + 1]!; c++) {
          if (!this.#find(c, doc)) continue
          const titleTf = this.#foundTitleTf
          const bodyTf = this.#foundBodyTf
          const score =
            weight[c]! *
            ((TITLE_BOOST * titleTf * (K1 + 1)) / (titleTf + titleNorm) +
              (bodyTf * (K1 + 1)) / (bodyTf + bodyNorm))
          if (score > slotBest) slotBest = score
          if (titleTf > 0) slotTitle = true
        }
        if (slotBest < 0) {
          found = false
          break
        }
        sum += slotBest
        inTitle &&= slotTitle
      }
      if (!found) continue
      if (sum > best) best = sum
      title ||= inTitle
    }
    this.#groupInTitle = title
    return best
  }

  #groupInTitle = false

  /** The postings lists whose union holds every document of group `g` (each alternative's smallest slot). */
  #groupLists(g: number): { lists: (Uint32Array | DensePostings)[]; size: number } {
    const lists: (Uint32Array | DensePostings)[] = []
    let size = 0
    for (let o = this.#groupStart[g]!; o < this.#groupStart[g + 1]!; o++) {
      let slotLists: (Uint32Array | DensePostings)[] = []
      let slotSize = Infinity
      for (let s = this.#optionStart[o]!; s < this.#optionStart[o + 1]!; s++) {
        const own: (Uint32Array | DensePostings)[] = []
        for (let c = this.#slotStart[s]!; c < this.#slotStart[s + 1]!; c++)
          own.push(this.#dense[c] ?? this.#docs[c]!)
        const n = own.reduce((sum, d) => sum + d.length, 0)
        if (n < slotSize) [slotLists, slotSize] = [own, n]
      }
      lists.push(...slotLists)
      size += slotSize
    }
    return { lists, size }
  }

  /**
   * The documents that may hold every group, as bits: per group, the union over its alternatives of
   * the intersection of their slots (each the union of its words), word-parallel for words held as
   * bits. Every matching document is among them; `matches` still decides, and scores. Worth it when
   * the candidates are many and the words common (a long query of common words): a few passes of
   * N/32 words instead of a check per candidate against each group.
   */
  possible(): Uint32Array {
    return runThrough(this.possibleInSteps(new SliceBudget(Infinity)))
  }

  /** `possible`, yielding when `budget`'s slice is spent (steps.ts): a group's pass of N/32 words is work. */
  *possibleInSteps(budget: SliceBudget): Steps<Uint32Array> {
    const words = (this.#stats.titleLength.length + 31) >>> 5
    const all = new Uint32Array(words).fill(0xffffffff)
    const group = new Uint32Array(words)
    const work = { option: new Uint32Array(words), slot: new Uint32Array(words) }
    for (let g = 0; g < this.groupCount; g++) {
      const done = this.holdersInto(g, group, work)
      for (let w = 0; w < words; w++) all[w] = all[w]! & group[w]!
      if (budget.spend(done + words)) yield
    }
    return all
  }

  /**
   * The documents holding group `g`, as bits written into `into` (a bit a document): the union over
   * its alternatives of the intersection of their slots, each the union of its words — exactly the
   * documents `covers` finds the group in. `work` holds two rows of the same size. Gives the work
   * done, in words of the rows and postings read (a slice's measure, steps.ts).
   */
  holdersInto(g: number, into: Uint32Array, work: { option: Uint32Array; slot: Uint32Array }): number {
    const { option, slot } = work
    into.fill(0)
    let done = into.length
    for (let o = this.#groupStart[g]!; o < this.#groupStart[g + 1]!; o++) {
      const first = this.#optionStart[o]!
      const end = this.#optionStart[o + 1]!
      // One slot (a word and its forms, the common case): its words go straight into the group.
      if (end - first === 1) {
        done += this.#slotInto(first, into)
        continue
      }
      option.fill(0xffffffff)
      for (let s = first; s < end; s++) {
        slot.fill(0)
        done += this.#slotInto(s, slot) + 2 * slot.length
        for (let w = 0; w < option.length; w++) option[w] = option[w]! & slot[w]!
      }
      for (let w = 0; w < into.length; w++) into[w] = into[w]! | option[w]!
      done += 2 * into.length
    }
    return done
  }

  /** Adds the documents of slot `s`'s words to `bits`; gives the words and postings read. */
  #slotInto(s: number, bits: Uint32Array): number {
    let done = 0
    for (let c = this.#slotStart[s]!; c < this.#slotStart[s + 1]!; c++) {
      const dense = this.#dense[c]
      if (dense !== undefined) {
        const member = dense.member
        for (let w = 0; w < bits.length; w++) bits[w] = bits[w]! | member[w]!
        done += bits.length
      } else {
        const docs = this.#docs[c]!
        for (let i = 0; i < docs.length; i++) setBit(bits, docs[i]!)
        done += docs.length
      }
    }
    return done
  }

  /**
   * Adds to `bits` the documents whose title holds a word of group `g`: every document `covers`
   * finds the group in the title of is among them. Gives the postings read.
   */
  titledInto(g: number, bits: Uint32Array): number {
    let done = 0
    for (const { docs, titleTf } of this.listsOf(g)) {
      for (let i = 0; i < titleTf.length; i++) if (titleTf[i] !== 0) setBit(bits, docs[i]!)
      done += titleTf.length
    }
    return done
  }

  /**
   * Whether some document holds every group: the lists `candidates` unites tried one at a time, in
   * order, until a document matches (no union made: at 1 000 000 records, making it for a phrase of
   * two common words cost 8–20 ms where its first document matched). A check a document.
   */
  *someMatchInSteps(checks: SliceBudget): Steps<boolean> {
    const cost = this.groupCount
    for (const list of this.#smallestGroupLists()) {
      this.rewind()
      if (list instanceof Uint32Array) {
        for (let i = 0; i < list.length; i++) {
          if (this.matches(list[i]!) !== undefined) return true
          if (checks.spend(cost)) yield
        }
        continue
      }
      const member = list.member
      for (let w = 0; w < member.length; w++)
        for (let bits = member[w]!; bits !== 0; bits = (bits & (bits - 1)) >>> 0) {
          if (this.matches(lowestDoc(w, bits)) !== undefined) return true
          if (checks.spend(cost)) yield
        }
    }
    return false
  }

  /** Documents that may match: those of the smallest slot of each alternative of the smallest group. */
  candidates(space?: CandidateSpace): Uint32Array {
    return unionOfDocs(this.#smallestGroupLists(), this.#stats.titleLength.length, space)
  }

  /** The lists of the group with the fewest candidates (`#groupLists`): every match is in one of them. */
  #smallestGroupLists(): (Uint32Array | DensePostings)[] {
    let best: (Uint32Array | DensePostings)[] = []
    let bestSize = Infinity
    for (let g = 0; g + 1 < this.#groupStart.length; g++) {
      const { lists, size } = this.#groupLists(g)
      if (size < bestSize) [best, bestSize] = [lists, size]
    }
    return best
  }

  /** What `doc` holds when it satisfies every group (see `Match`), else undefined. Documents must come in ascending order. */
  matches(doc: number): Match | undefined {
    const { titleLength, bodyLength, averageTitle, averageBody } = this.#stats
    // Locals rather than fields in the loop below: it runs once per candidate document.
    const docsOf = this.#docs
    const weight = this.#weight
    const groupStart = this.#groupStart
    const titleNorm = K1 * (1 - B + (B * titleLength[doc]!) / averageTitle)
    const bodyNorm = K1 * (1 - B + (B * bodyLength[doc]!) / averageBody)
    let tier = 0
    let total = 0
    if (this.#simple) {
      // Group g is cursor g: no alternatives to compare, no slots to combine.
      for (let c = 0; c < docsOf.length; c++) {
        if (!this.#find(c, doc)) return undefined
        const titleTf = this.#foundTitleTf
        const bodyTf = this.#foundBodyTf
        total +=
          weight[c]! *
          ((TITLE_BOOST * titleTf * (K1 + 1)) / (titleTf + titleNorm) +
            (bodyTf * (K1 + 1)) / (bodyTf + bodyNorm))
        if (titleTf > 0) tier++
      }
      return { tier, score: total }
    }
    for (let g = 0; g + 1 < groupStart.length; g++) {
      const best = this.#groupScore(g, doc, titleNorm, bodyNorm)
      if (best < 0) return undefined
      if (this.#groupInTitle) tier++
      total += best
    }
    return { tier, score: total }
  }
}
