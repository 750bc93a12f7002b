/**
 * The search's rule, evaluated the slow and obvious way, to check the engine against: every
 * document is read from its text, scored against every word group and sorted. Written from
 * docs/search.md ("What each word requires", "Ranking", "Best match") and docs/search-internals.md
 * alone: it shares no code with match-plan.ts, best-match.ts or any postings structure, only the
 * folding (tokenize.ts), which the index and the queries share by design. Queries come as the
 * interpreter lays them out — groups of alternatives of slots of words, each word folded, with its
 * weight — but by word, not by term number, so that no index is needed to state one.
 */
import { tokenize } from '../../src/core/search/tokenize.js'

type OracleWord = { readonly word: string; readonly weight: number }
/** All of its slots, each one of its words: a word with its forms (one slot), or a phrase. */
type OracleAlternative = {
  readonly slots: readonly (readonly OracleWord[])[]
  readonly weight: number
}
/**
 * One required word of a query: a document holds it when it holds one of its alternatives. `words`:
 * how many words of the query it was read from, when more than one (a phrase with aliases).
 */
export type OracleGroup = readonly OracleAlternative[] & { readonly words?: number }
export type OracleDocument = {
  readonly title: string
  readonly body: string
  /** 0 for reference content, 1 for the school's own promotion (docs/search.md, "Ranking"). */
  readonly rankClass: number
  /** The last tie-break: the document's place in id order. */
  readonly tieRank: number
}
/** What a document holds of a query, as the rule defines it. */
export type OracleScore = {
  readonly doc: number
  /** Bit i: the document holds group i (the query's position). */
  readonly mask: number
  readonly coverage: number
  readonly tier: number
  readonly score: number
}

// The constants the rule states (docs/search.md): BM25's, the title's boost, and best match's weights.
const K1 = 1.2
const B = 0.75
const TITLE_BOOST = 2
const TITLE_COVER = 1.5
const RARITY_SHARE = 0.5
/** Each further query word a group was read from adds this share of its rarity to its weight. */
const PHRASE_SHARE = 0.5
/**
 * A group held by at least this share of the documents is a context group; when a query has at least
 * two of them, each weighs a tenth of its rarity in that query.
 */
const CONTEXT_SHARE = 0.5
const CONTEXT_GROUPS = 2
const CONTEXT_WEIGHT = 0.1
/** A count in a field is kept in a byte (the index's limit, part of what it promises). */
const MAX_COUNT = 255
/** Best match weighs the 32 rarest groups at most (a document's groups are a 32-bit mask). */
const MAX_BEST_GROUPS = 32

type Counts = { title: number; body: number }

export class SearchOracle {
  readonly #documents: readonly OracleDocument[]
  readonly #counts: Map<string, Counts>[] = []
  readonly #titleLength: number[] = []
  readonly #bodyLength: number[] = []
  /** Per word, the documents holding it: only they can hold a group of it, the others are skipped. */
  readonly #holders = new Map<string, number[]>()
  readonly #averageTitle: number
  readonly #averageBody: number

  constructor(documents: readonly OracleDocument[]) {
    this.#documents = documents
    for (const { title, body } of documents) {
      const counts = new Map<string, Counts>()
      const titleWords = tokenize(title)
      const bodyWords = tokenize(body)
      for (const word of titleWords) at(counts, word).title++
      for (const word of bodyWords) at(counts, word).body++
      for (const word of counts.keys()) {
        const holders = this.#holders.get(word)
        if (holders === undefined) this.#holders.set(word, [this.#counts.length])
        else holders.push(this.#counts.length)
      }
      this.#counts.push(counts)
      this.#titleLength.push(titleWords.length)
      this.#bodyLength.push(bodyWords.length)
    }
    // An empty field everywhere averages 1, as the snapshot's build says, not 0.
    const n = documents.length
    this.#averageTitle = this.#titleLength.reduce((a, b) => a + b, 0) / n || 1
    this.#averageBody = this.#bodyLength.reduce((a, b) => a + b, 0) / n || 1
  }

  /**
   * `match=all`: the documents holding every group, kept by `keep`, in the all-words order — more
   * groups in the title first, then reference content before promotion, then BM25, then id.
   */
  all(groups: readonly OracleGroup[], keep?: (doc: number) => boolean): number[] {
    if (groups.length === 0) return []
    return this.#scoreAll(groups, keep)
      .filter((s) => s.held === groups.length)
      .sort((a, b) => this.#allWordsOrder(a, b))
      .map((s) => s.doc)
  }

  /**
   * `match=best`: groups no document holds left out; documents holding every group left first, in
   * the all-words order; then the others by coverage (each group held weighs its rarity, half again
   * for each further query word it was read from, a tenth of it for a context group of a query with
   * two or more, ×1.5 in the title), then the all-words order. `total` counts the documents holding at least the groups of
   * the first.
   */
  best(
    groups: readonly OracleGroup[],
    keep?: (doc: number) => boolean,
  ): { ranked: OracleScore[]; best: number; total: number } {
    const held = groups
      .map((group, position) => ({ group, position, size: this.#estimatedSize(group) }))
      .filter(({ group }) => this.#candidates([group]).some((doc) => this.#groupIn(group, doc) !== undefined))
      .sort((a, b) => a.size - b.size || a.position - b.position)
      .slice(0, MAX_BEST_GROUPS)
    const context = (size: number) => size >= CONTEXT_SHARE * this.#documents.length
    const contextual = held.filter(({ size }) => context(size)).length >= CONTEXT_GROUPS
    const rarity = new Map(
      held.map(({ group, position, size }) => [
        position,
        this.#rarity(size) *
          (1 + PHRASE_SHARE * ((group.words ?? 1) - 1)) *
          (contextual && context(size) ? CONTEXT_WEIGHT : 1),
      ]),
    )
    const full = held.reduce((mask, { position }) => (mask | bitOf(position)) >>> 0, 0)
    const scored: (OracleScore & { full: boolean })[] = []
    for (const doc of this.#candidates(groups)) {
      if (keep !== undefined && !keep(doc)) continue
      let [mask, coverage, tier, score] = [0, 0, 0, 0]
      // Summed rarest first, as the index sums them: equal sums of the same weights stay equal.
      for (const { group, position } of held) {
        const found = this.#groupIn(group, doc)
        if (found === undefined) continue
        mask = (mask | bitOf(position)) >>> 0
        coverage += rarity.get(position)! * (found.inTitle ? TITLE_COVER : 1)
        if (found.inTitle) tier++
        score += found.score
      }
      if (mask !== 0) scored.push({ doc, mask, coverage, tier, score, full: mask === full })
    }
    scored.sort(
      (a, b) =>
        Number(b.full) - Number(a.full) ||
        (a.full ? 0 : b.coverage - a.coverage) ||
        this.#allWordsOrder(a, b),
    )
    const best = scored[0]?.mask ?? 0
    const total = scored.filter((s) => (s.mask & best) >>> 0 === best).length
    return { ranked: scored.map(({ full: _, ...s }) => s), best, total }
  }

  /** Whether `doc` holds `group`: some alternative has every slot's word somewhere in the document. */
  holds(group: OracleGroup, doc: number): boolean {
    return this.#groupIn(group, doc) !== undefined
  }

  #scoreAll(
    groups: readonly OracleGroup[],
    keep?: (doc: number) => boolean,
  ): (OracleScore & { held: number })[] {
    const scored: (OracleScore & { held: number })[] = []
    for (const doc of this.#candidates(groups)) {
      if (keep !== undefined && !keep(doc)) continue
      let [mask, held, tier, score] = [0, 0, 0, 0]
      groups.forEach((group, position) => {
        const found = this.#groupIn(group, doc)
        if (found === undefined) return
        held++
        mask = (mask | bitOf(position)) >>> 0
        if (found.inTitle) tier++
        score += found.score
      })
      scored.push({ doc, mask, held, coverage: 0, tier, score })
    }
    return scored
  }

  /** The documents holding some word of the groups, ascending. */
  #candidates(groups: readonly OracleGroup[]): number[] {
    const docs = new Set<number>()
    for (const group of groups)
      for (const { slots } of group)
        for (const slot of slots)
          for (const { word } of slot) for (const doc of this.#holders.get(word) ?? []) docs.add(doc)
    return [...docs].sort((a, b) => a - b)
  }

  #allWordsOrder(a: OracleScore, b: OracleScore): number {
    const [da, db] = [this.#documents[a.doc]!, this.#documents[b.doc]!]
    return b.tier - a.tier || da.rankClass - db.rankClass || b.score - a.score || da.tieRank - db.tieRank
  }

  /**
   * The group in `doc`: its score (the best alternative held, each the sum of its slots' best word,
   * a word weighing its own weight times its alternative's) and whether one alternative held has
   * every slot in the title.
   */
  #groupIn(group: OracleGroup, doc: number): { score: number; inTitle: boolean } | undefined {
    let best: { score: number; inTitle: boolean } | undefined
    for (const alternative of group) {
      if (alternative.slots.length === 0) continue
      let sum = 0
      let inTitle = true
      let holds = true
      for (const slot of alternative.slots) {
        let slotBest = -1
        let slotTitle = false
        for (const { word, weight } of slot) {
          const counts = this.#counts[doc]!.get(word)
          if (counts === undefined) continue
          slotBest = Math.max(slotBest, this.#bm25(word, weight * alternative.weight, doc, counts))
          slotTitle ||= counts.title > 0
        }
        if (slotBest < 0) {
          holds = false
          break
        }
        sum += slotBest
        inTitle &&= slotTitle
      }
      if (!holds) continue
      best = { score: Math.max(best?.score ?? -1, sum), inTitle: (best?.inTitle ?? false) || inTitle }
    }
    return best
  }

  /**
   * BM25 of `word` in `doc` at `weight`, per field, each normalised by its length, the title's
   * boosted. The weights are multiplied together first, then by idf: a mathematically equal score
   * is then the same number whichever weight came from the form and which from the alternative.
   */
  #bm25(word: string, weight: number, doc: number, counts: Counts): number {
    const title = Math.min(counts.title, MAX_COUNT)
    const body = Math.min(counts.body, MAX_COUNT)
    const titleNorm = K1 * (1 - B + (B * this.#titleLength[doc]!) / this.#averageTitle)
    const bodyNorm = K1 * (1 - B + (B * this.#bodyLength[doc]!) / this.#averageBody)
    return (
      weight *
      this.#idf(this.#holders.get(word)?.length ?? 0) *
      ((TITLE_BOOST * title * (K1 + 1)) / (title + titleNorm) + (body * (K1 + 1)) / (body + bodyNorm))
    )
  }

  #idf(documents: number): number {
    const n = this.#documents.length
    return Math.log(1 + (n - documents + 0.5) / (documents + 0.5))
  }

  /**
   * How many documents a group is taken to hold when its rarity is weighed: per alternative, its
   * smallest slot (the documents of its words added up), added up over the alternatives, at most
   * every document. An estimate read from the words' document counts, not from the documents.
   */
  #estimatedSize(group: OracleGroup): number {
    let size = 0
    for (const { slots } of group) {
      if (slots.length === 0) continue
      size += Math.min(
        ...slots.map((slot) => slot.reduce((n, { word }) => n + (this.#holders.get(word)?.length ?? 0), 0)),
      )
    }
    return Math.min(size, this.#documents.length)
  }

  /** What holding a group weighs: 1 + RARITY_SHARE × idf(its documents) / idf(1). */
  #rarity(size: number): number {
    return 1 + (RARITY_SHARE * this.#idf(size)) / this.#idf(1)
  }
}

function at(counts: Map<string, Counts>, word: string): Counts {
  let found = counts.get(word)
  if (found === undefined) counts.set(word, (found = { title: 0, body: 0 }))
  return found
}

const bitOf = (position: number) => (position < 32 ? (1 << position) >>> 0 : 0)
