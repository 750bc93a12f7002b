/**
 * A search laid out for the per-document loop of matchGroups (match.ts): which documents to try,
 * and whether a document satisfies every word group, with its title tier and BM25 score.
 */
import type { CandidateSpace } from './candidate-space.js'
import { seek, unionOfDocs, type PostingsOf } from './postings.js'

export type WeightedTerm = { readonly term: number; readonly weight: number }
export type Alternative = { readonly slots: readonly (readonly WeightedTerm[])[]; readonly weight: number }
/** One significant word of the query: a record must satisfy one of its alternatives. */
export type TermGroup = readonly Alternative[]

/** Field lengths for BM25: per document, and their averages. */
export type FieldStats = { titleLength: Float32Array; bodyLength: Float32Array; averageTitle: number; averageBody: number }

/** How equally good matches are ordered: `rankClass` ascending (per document), then score, then `tieRank`. */
export type Ranking = { rankClass: Uint8Array; tieRank: Uint32Array }

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
  /** Per cursor: next position to look at, and weight × idf. */
  readonly #at: Int32Array
  readonly #weight: Float64Array
  /** Slot s spans cursors [slotStart[s], slotStart[s+1]); option o spans slots [optionStart[o], …); group g options [groupStart[g], …). */
  readonly #slotStart: number[] = [0]
  readonly #optionStart: number[] = [0]
  readonly #optionWeight: number[] = []
  readonly #groupStart: number[] = [0]
  readonly #stats: FieldStats
  /** Every group is one word with no other form or alias: one cursor per group, the common case. */
  readonly #simple: boolean
  /** Set by `matches`: groups found in the title, and the summed score. */
  tier = 0
  score = 0

  private constructor(groups: readonly TermGroup[], postings: PostingsOf, stats: FieldStats) {
    this.#stats = stats
    const documentCount = stats.titleLength.length
    const weights: number[] = []
    for (const group of groups) {
      for (const option of group) {
        if (option.slots.length === 0 || option.slots.some((slot) => slot.length === 0)) continue
        for (const slot of option.slots) {
          for (const { term, weight } of slot) {
            const p = postings(term)
            this.#docs.push(p.docs)
            this.#titleTf.push(p.titleTf)
            this.#bodyTf.push(p.bodyTf)
            weights.push(weight * Math.log(1 + (documentCount - p.docs.length + 0.5) / (p.docs.length + 0.5)))
          }
          this.#slotStart.push(this.#docs.length)
        }
        this.#optionStart.push(this.#slotStart.length - 1)
        this.#optionWeight.push(option.weight)
      }
      this.#groupStart.push(this.#optionWeight.length)
    }
    this.#at = new Int32Array(this.#docs.length)
    this.#weight = Float64Array.from(weights)
    this.#simple = this.#docs.length === this.#optionWeight.length && this.#optionWeight.length === this.#groupStart.length - 1
  }

  /** The plan, or undefined when a group can match nothing (so the query matches nothing). */
  static of(groups: readonly TermGroup[], postings: PostingsOf, stats: FieldStats): Plan | undefined {
    // Rarest group first: most candidates that fail, fail on the first check.
    const size = (group: TermGroup) =>
      group.reduce((n, option) => n + Math.min(...option.slots.map((slot) => slot.reduce((m, t) => m + postings(t.term).docs.length, 0))), 0)
    const sizes = new Map(groups.map((g) => [g, size(g)]))
    const plan = new Plan([...groups].sort((a, b) => sizes.get(a)! - sizes.get(b)!), postings, stats)
    const groupCount = plan.#groupStart.length - 1
    if (groupCount === 0) return undefined
    for (let g = 0; g < groupCount; g++) if (plan.#groupStart[g] === plan.#groupStart[g + 1]) return undefined
    return plan
  }

  /** Documents that may match: those of the smallest slot of each alternative of the smallest group. */
  candidates(space?: CandidateSpace): Uint32Array {
    const documentCount = this.#stats.titleLength.length
    let best: Uint32Array[] = []
    let bestSize = Infinity
    for (let g = 0; g + 1 < this.#groupStart.length; g++) {
      const lists: Uint32Array[] = []
      let size = 0
      for (let o = this.#groupStart[g]!; o < this.#groupStart[g + 1]!; o++) {
        let slotLists: Uint32Array[] = []
        let slotSize = Infinity
        for (let s = this.#optionStart[o]!; s < this.#optionStart[o + 1]!; s++) {
          const own = this.#docs.slice(this.#slotStart[s]!, this.#slotStart[s + 1]!)
          const n = own.reduce((sum, d) => sum + d.length, 0)
          if (n < slotSize) [slotLists, slotSize] = [own, n]
        }
        lists.push(...slotLists)
        size += slotSize
      }
      if (size < bestSize) [best, bestSize] = [lists, size]
    }
    return unionOfDocs(best, documentCount, space)
  }

  /** Whether `doc` satisfies every group; sets `tier` and `score` when it does. Documents must come in ascending order. */
  matches(doc: number): boolean {
    const { titleLength, bodyLength, averageTitle, averageBody } = this.#stats
    // Locals rather than fields in the loop below: it runs once per candidate document.
    const docsOf = this.#docs
    const titleTfOf = this.#titleTf
    const bodyTfOf = this.#bodyTf
    const cursorAt = this.#at
    const weight = this.#weight
    const slotStart = this.#slotStart
    const optionStart = this.#optionStart
    const optionWeight = this.#optionWeight
    const groupStart = this.#groupStart
    const titleNorm = K1 * (1 - B + (B * titleLength[doc]!) / averageTitle)
    const bodyNorm = K1 * (1 - B + (B * bodyLength[doc]!) / averageBody)
    let tier = 0
    let total = 0
    if (this.#simple) {
      // Group g is cursor g: no alternatives to compare, no slots to combine.
      for (let c = 0; c < docsOf.length; c++) {
        const docs = docsOf[c]!
        let at = cursorAt[c]!
        if (at < docs.length && docs[at]! < doc) at = cursorAt[c] = seek(docs, doc, at)
        if (at >= docs.length || docs[at] !== doc) return false
        const titleTf = titleTfOf[c]![at]!
        const bodyTf = bodyTfOf[c]![at]!
        total += optionWeight[c]! * weight[c]! * ((TITLE_BOOST * titleTf * (K1 + 1)) / (titleTf + titleNorm) + (bodyTf * (K1 + 1)) / (bodyTf + bodyNorm))
        if (titleTf > 0) tier++
      }
      this.tier = tier
      this.score = total
      return true
    }
    for (let g = 0; g + 1 < groupStart.length; g++) {
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
            const docs = docsOf[c]!
            let at = cursorAt[c]!
            if (at < docs.length && docs[at]! < doc) at = cursorAt[c] = seek(docs, doc, at)
            if (at >= docs.length || docs[at] !== doc) continue
            const titleTf = titleTfOf[c]![at]!
            const bodyTf = bodyTfOf[c]![at]!
            const score = weight[c]! * ((TITLE_BOOST * titleTf * (K1 + 1)) / (titleTf + titleNorm) + (bodyTf * (K1 + 1)) / (bodyTf + bodyNorm))
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
        const score = sum * optionWeight[o]!
        if (score > best) best = score
        title ||= inTitle
      }
      if (best < 0) return false
      if (title) tier++
      total += best
    }
    this.tier = tier
    this.score = total
    return true
  }
}
