/**
 * Best match (docs/search.md, "Best match"): when no record holds every word group of a query, the
 * records holding the most of them — weighted by rarity, and more when the title holds them — ranked
 * first, then by the order of an all-words search (title tier, rank class, BM25, tie rank). It is the
 * rule Meilisearch calls its `words` ranking rule and Algolia `removeWordsIfNoResults`: a word that
 * no answering record holds (a detail, a paraphrase, a word of context in an assistant's sentence)
 * no longer empties the answer.
 *
 * Evaluated in three steps, so that a long query of common words does not check every document
 * against every group:
 * 1. an all-words search of the groups some document holds: when it fills the page, it is the answer;
 * 2. otherwise the groups are counted, with a bound per document (the groups it holds, the titles it
 *    holds). Groups holding many documents together (a query of common words) are counted on bits,
 *    32 documents a word (coverage-levels.ts), and documents taken level by level, highest first.
 *    Others are counted term at a time, rarest first, until the documents among none of them cannot
 *    reach the page and counting more would cost more than it saves — the MaxScore idea of
 *    "essential" lists, with the bound made tight by reading the titles;
 * 3. only the documents whose bound reaches the page's floor are checked against every group.
 * Written by hand for the same reason as the rest of the matcher (text-index.ts): no library ranks by
 * a coverage of word groups with forms and aliases, over postings it does not own.
 */
import type { CandidateSpace } from './candidate-space.js'
import {
  BOUND_SLACK,
  Plan,
  TITLE_COVER,
  type Coverage,
  type FieldStats,
  type Ranking,
  type TermGroup,
} from './match-plan.js'
import { matchWithPlanInSteps, STEP_CHECKS } from './match.js'
import { runThrough, SliceBudget, STEP_WORK, type Steps } from './steps.js'
import { CoverageLevels } from './coverage-levels.js'
import { lowestDoc, type TermPostingsOf } from './dense-postings.js'

export type BestMatchRequest = {
  groups: readonly TermGroup[]
  /** The filters (kind, region); undefined keeps every document. */
  keep: ((doc: number) => boolean) | undefined
  offset: number
  limit: number
}

export type BestMatchAnswer = {
  /** Documents holding at least the best-matched groups (`best`): the first `total` of the ranking. */
  total: number
  /** The page asked for, best first; it continues past `total` with documents holding fewer groups. */
  docs: number[]
  /** Per document of `docs`, the groups it holds, as bits of the query's group positions. */
  masks: number[]
  /** The groups the best document holds: 0 when no document holds any. */
  best: number
}

const NOTHING: BestMatchAnswer = { total: 0, docs: [], masks: [], best: 0 }

export function matchBest(
  postings: TermPostingsOf,
  stats: FieldStats,
  ranking: Ranking,
  request: BestMatchRequest,
  space?: CandidateSpace,
  counting?: Counting,
): BestMatchAnswer {
  return runThrough(matchBestInSteps(postings, stats, ranking, request, space, counting))
}

/** `matchBest`, yielding between slices of its all-words searches (steps.ts). */
export function* matchBestInSteps(
  postings: TermPostingsOf,
  stats: FieldStats,
  ranking: Ranking,
  request: BestMatchRequest,
  space?: CandidateSpace,
  counting?: Counting,
): Steps<BestMatchAnswer> {
  const plan = yield* Plan.forBestInSteps(request.groups, postings, stats, new SliceBudget(STEP_CHECKS))
  if (plan === undefined) return NOTHING
  const onBits = counting === undefined ? countsOnBits(plan) : counting === 'bits'
  const levels = onBits ? yield* CoverageLevels.inSteps(plan, space, new SliceBudget(STEP_WORK)) : undefined
  // A document holding every group that some document holds is one an all-words search of those
  // groups finds: such documents come first, in its order, whatever their coverage (a record
  // holding every word in its body only weighs less than one titling two of them). The search
  // supplies all of them ahead of the page, and the counting below ranks only the others. When they
  // fill the page, that search is the answer, at its cost (a word no record holds is left out, as
  // Algolia's removeWordsIfNoResults). On bits, how many they are is known first: the search runs
  // only when some document holds every group.
  const fullMask = plan.fullMask
  const size = request.offset + request.limit
  const fullCount = levels?.holding(fullMask, request.keep)
  const all =
    fullCount === 0
      ? { total: 0, docs: [] }
      : yield* matchWithPlanInSteps(
          postings,
          stats,
          ranking,
          { groups: plan.groups, keep: request.keep, offset: 0, limit: size },
          space,
          levels?.holdersOf(fullMask),
        )
  if (all.total >= size) {
    const docs = all.docs.slice(request.offset)
    return { total: all.total, docs, masks: docs.map(() => fullMask), best: fullMask }
  }
  // Every document holding every group is in `all.docs`: the page keeps room for the others only.
  const page = new BestPage(size - all.docs.length, ranking)
  if (levels !== undefined) yield* rankOnBits(plan, levels, request.keep, page)
  else rankTermAtATime(plan, request.keep, page, space)
  const ranked = [...all.docs.map((doc) => ({ doc, mask: fullMask })), ...page.sorted()]
  if (ranked.length === 0) return NOTHING
  const best = ranked[0]!.mask
  // For a smaller set than every group, documents holding it may have been pruned (fewer of its
  // words in their title), so they are counted: on the bits, or by an all-words search of that set.
  const total =
    best === fullMask
      ? all.total
      : (levels?.holding(best, request.keep) ??
        (yield* countHolding(request, best, postings, stats, ranking)))
  const shown = ranked.slice(request.offset)
  return { total, docs: shown.map((e) => e.doc), masks: shown.map((e) => e.mask), best }
}

/**
 * How best match counts the groups each document holds: on their bits (coverage-levels.ts), or
 * term at a time over their postings (GroupCounts). The same answer either way; left to the size of
 * the groups when not given (tests give it, to compare the two).
 */
type Counting = 'bits' | 'postings'

/**
 * Whether the groups are better counted on bits: counting term at a time costs a step per posting,
 * on bits a few passes of a word per 32 documents per group, whatever the groups hold.
 */
function countsOnBits(plan: Plan): boolean {
  let postings = 0
  for (let g = 0; g < plan.groupCount; g++) postings += plan.candidateCount(g)
  return postings * BITS_SHARE > plan.documentCount
}

/** Groups holding together more than one posting per BITS_SHARE documents are counted on bits. */
const BITS_SHARE = 4

/**
 * Fills `page` from the levels of the documents (coverage-levels.ts), highest first, each level's
 * documents in ascending order: until the page is full, then every level that may still reach its
 * floor at once, each document held to its exact bound before it is evaluated.
 */
function* rankOnBits(
  plan: Plan,
  levels: CoverageLevels,
  keep: ((doc: number) => boolean) | undefined,
  page: BestPage,
): Steps<void> {
  yield* levels.countInSteps()
  const fullMask = plan.fullMask
  // A document evaluated costs a check of each group, as in an all-words search (match.ts); one its
  // bound or the filter leaves out, one check.
  const checks = new SliceBudget(STEP_CHECKS)
  const groups = plan.groupCount
  function* evaluate(low: number, high: number): Steps<void> {
    plan.rewind()
    for (const w of levels.wordsReaching(low)) {
      for (let bits = levels.within(w, low, high); bits !== 0; bits = (bits & (bits - 1)) >>> 0) {
        const doc = lowestDoc(w, bits)
        const floor = page.full ? page.floor : 0
        if ((keep !== undefined && !keep(doc)) || levels.bound(doc) + BOUND_SLACK < floor) {
          if (checks.spend(1)) yield
          continue
        }
        const found = plan.covers(doc, floor)
        if (found !== undefined && found.mask !== fullMask) page.offer(doc, found)
        if (checks.spend(groups)) yield
      }
    }
  }
  let level = levels.top
  for (; level > 0 && !page.full; level--) yield* evaluate(level, level)
  let reachable = level
  while (reachable > 0 && levels.reach(reachable) + BOUND_SLACK >= page.floor) reachable--
  if (reachable < level) yield* evaluate(reachable + 1, level)
}

/**
 * Fills `page` counting the groups term at a time, rarest first, until the documents among none of
 * those counted cannot enter the page (they hold at most the groups left, and the titles counted)
 * and counting one more group would cost more than evaluating the documents whose bound still
 * reaches the page. The documents among the most counted groups, evaluated first, give the page its
 * floor.
 */
function rankTermAtATime(
  plan: Plan,
  keep: ((doc: number) => boolean) | undefined,
  page: BestPage,
  space: CandidateSpace | undefined,
): void {
  const fullMask = plan.fullMask
  const counts = new GroupCounts(plan, keep, space)
  const evaluate = (docs: Uint32Array) => {
    plan.rewind()
    for (const doc of docs) {
      const found = plan.covers(doc, page.full ? page.floor : 0)
      if (found !== undefined && found.mask !== fullMask) page.offer(doc, found)
    }
  }
  while (counts.counted < plan.groupCount) {
    counts.add()
    if (counts.counted === plan.groupCount) break
    for (let n = counts.counted; n >= 1 && !page.full; n--) evaluate(counts.take(n))
    if (!page.full || counts.uncounted + BOUND_SLACK >= page.floor) continue
    if (counts.nextSize() >= EVALUATION_COST * counts.countReaching(page.floor - counts.uncounted)) break
  }
  // What a document may weigh: the counted groups it is among, the titles it holds, every group left.
  evaluate(counts.reaching(page.full ? page.floor - counts.uncounted : -Infinity))
}

/**
 * What a best match may still find, per document kept by the filters, read group by group over the
 * postings (a few nanoseconds a posting, where checking a document against every group costs a seek
 * per group): how many of the groups counted so far the document is among (its candidates, rarest
 * group first), and a bound of what it weighs — the counted groups it is among plus the title bonus
 * of every group whose title words it holds. A document among no counted group and titling no query
 * word weighs at most `uncounted`. The documents met get a slot each, in the order met, so that the
 * passes over them read memory in order. Written by hand, like the rest of the matcher: the arrays
 * are the index's work space.
 */
class GroupCounts {
  counted = 0
  /** What the groups not counted yet weigh together, found outside titles. */
  uncounted = 0
  readonly #plan: Plan
  readonly #keep: ((doc: number) => boolean) | undefined
  readonly #space: CandidateSpace | undefined
  readonly #seen: Uint32Array
  readonly #search: number
  /** Per document marked by this search: its slot, or FILTERED_OUT. */
  readonly #slotOf: Uint32Array
  /** Per slot: the document, the counted groups it is among (and TAKEN once handed out), its bound. */
  readonly #doc: Uint32Array
  readonly #level: Uint8Array
  readonly #reach: Float64Array
  /** Room for the documents handed out at once. */
  readonly #out: Uint32Array
  #slots = 0

  constructor(plan: Plan, keep: ((doc: number) => boolean) | undefined, space?: CandidateSpace) {
    this.#plan = plan
    this.#keep = keep
    this.#space = space
    const n = plan.documentCount
    const { seen, search } = space?.seen() ?? { seen: new Uint32Array(n), search: 1 }
    this.#seen = seen
    this.#search = search
    const slots = space?.bestMatchSlots() ?? {
      slotOf: new Uint32Array(n),
      doc: new Uint32Array(n),
      level: new Uint8Array(n),
      reach: new Float64Array(n),
      out: new Uint32Array(n),
    }
    ;({
      slotOf: this.#slotOf,
      doc: this.#doc,
      level: this.#level,
      reach: this.#reach,
      out: this.#out,
    } = slots)
    // Titles are short, so their words' documents are few: the title bonus of every group is read
    // first, and the bound of a document outside the counted groups needs no title assumption.
    for (let g = 0; g < plan.groupCount; g++) {
      const bonus = plan.plainWeight(g) * (TITLE_COVER - 1)
      for (const { docs, titleTf } of plan.listsOf(g)) {
        for (let i = 0; i < titleTf.length; i++) {
          if (titleTf[i] === 0) continue
          const slot = this.#slot(docs[i]!)
          if (slot !== FILTERED_OUT) this.#reach[slot] = this.#reach[slot]! + bonus
        }
      }
      this.uncounted += plan.plainWeight(g)
    }
  }

  /** The slot of `doc`, given on first meeting it; FILTERED_OUT when the filters leave it out. */
  #slot(doc: number): number {
    if (this.#seen[doc] === this.#search) return this.#slotOf[doc]!
    this.#seen[doc] = this.#search
    if (this.#keep !== undefined && !this.#keep(doc)) return (this.#slotOf[doc] = FILTERED_OUT)
    const slot = this.#slots++
    this.#slotOf[doc] = slot
    this.#doc[slot] = doc
    this.#level[slot] = 0
    this.#reach[slot] = 0
    return slot
  }

  /** Counts the next group. */
  add(): void {
    const g = this.counted++
    const candidates = this.#plan.candidatesOf(g, this.#space)
    const weight = this.#plan.plainWeight(g)
    this.uncounted -= weight
    const [level, reach] = [this.#level, this.#reach]
    for (let i = 0; i < candidates.length; i++) {
      const slot = this.#slot(candidates[i]!)
      if (slot === FILTERED_OUT) continue
      level[slot] = level[slot]! + 1
      reach[slot] = reach[slot]! + weight
    }
  }

  /** The candidates of the next group to count. */
  nextSize(): number {
    return this.#plan.candidateCount(this.counted)
  }

  /** How many documents not handed out yet have a bound reaching `threshold` (see `reaching`). */
  countReaching(threshold: number): number {
    const [level, reach] = [this.#level, this.#reach]
    let n = 0
    for (let slot = 0; slot < this.#slots; slot++)
      if (level[slot]! < TAKEN && reach[slot]! + BOUND_SLACK >= threshold) n++
    return n
  }

  /** The documents among exactly `n` counted groups not handed out yet, in ascending order; each is handed out once. */
  take(n: number): Uint32Array {
    const level = this.#level
    let k = 0
    for (let slot = 0; slot < this.#slots; slot++) {
      if (level[slot] !== n) continue
      level[slot] = n | TAKEN
      this.#out[k++] = this.#doc[slot]!
    }
    return this.#out.subarray(0, k).sort()
  }

  /** The documents not handed out yet whose bound (groups not counted aside) reaches `threshold`, in ascending order. */
  reaching(threshold: number): Uint32Array {
    const [level, reach] = [this.#level, this.#reach]
    let k = 0
    for (let slot = 0; slot < this.#slots; slot++) {
      if (level[slot]! >= TAKEN || reach[slot]! + BOUND_SLACK < threshold) continue
      level[slot] = level[slot]! | TAKEN
      this.#out[k++] = this.#doc[slot]!
    }
    return this.#out.subarray(0, k).sort()
  }
}

/**
 * What evaluating a document (a seek in each group's postings) costs against counting one posting of
 * a group (an addition): measured on the generated corpus at 200 000 records (docs/scale.md).
 */
const EVALUATION_COST = 32

/** The slot of a document the filters leave out; the level mark of a document handed out (groups are at most 32). */
const FILTERED_OUT = 0xffffffff
const TAKEN = 0x80

/** How many documents (kept by the filters) hold every group whose bit is in `mask`. */
function* countHolding(
  request: BestMatchRequest,
  mask: number,
  postings: TermPostingsOf,
  stats: FieldStats,
  ranking: Ranking,
): Steps<number> {
  const groups = request.groups.filter((_, i) => i < 32 && ((mask >>> i) & 1) === 1)
  const { total } = yield* matchWithPlanInSteps(postings, stats, ranking, {
    groups,
    keep: request.keep,
    countOnly: true,
    offset: 0,
    limit: 0,
  })
  return total
}

type Entry = Coverage & { readonly doc: number }

/**
 * The best `size` documents offered that do not hold every group (those come from the all-words
 * search, ahead of these), in a bounded heap whose root is the worst kept: coverage first, then the
 * all-words order (tier, rank class, score, tie rank).
 */
class BestPage {
  readonly #heap: Entry[] = []
  readonly #rankClass: Uint8Array
  readonly #tieRank: Uint32Array

  constructor(
    readonly size: number,
    ranking: Ranking,
  ) {
    this.#rankClass = ranking.rankClass
    this.#tieRank = ranking.tieRank
  }

  get full(): boolean {
    return this.#heap.length >= this.size
  }

  /**
   * What a document must weigh to enter a full page: the coverage of the worst entry kept; nothing
   * can enter a page with no room.
   */
  get floor(): number {
    if (this.size === 0) return Infinity
    return this.#heap[0]?.coverage ?? 0
  }

  /** Whether `a` ranks before `b`. */
  #before(a: Entry, b: Entry): boolean {
    if (a.coverage !== b.coverage) return a.coverage > b.coverage
    if (a.tier !== b.tier) return a.tier > b.tier
    const rank = this.#rankClass[a.doc]! - this.#rankClass[b.doc]!
    if (rank !== 0) return rank < 0
    if (a.score !== b.score) return a.score > b.score
    return this.#tieRank[a.doc]! < this.#tieRank[b.doc]!
  }

  offer(doc: number, { coverage, tier, score, mask }: Coverage): void {
    if (this.size === 0) return
    const heap = this.#heap
    const entry: Entry = { doc, coverage, tier, score, mask }
    if (heap.length < this.size) {
      let k = heap.length
      heap.push(entry)
      while (k > 0) {
        const parent = (k - 1) >> 1
        if (this.#before(entry, heap[parent]!)) break
        heap[k] = heap[parent]!
        k = parent
      }
      heap[k] = entry
      return
    }
    if (!this.#before(entry, heap[0]!)) return
    let k = 0
    for (;;) {
      const left = 2 * k + 1
      if (left >= heap.length) break
      const right = left + 1
      const worse = right < heap.length && !this.#before(heap[right]!, heap[left]!) ? right : left
      if (!this.#before(entry, heap[worse]!)) break
      heap[k] = heap[worse]!
      k = worse
    }
    heap[k] = entry
  }

  /** The kept entries, best first. */
  sorted(): Entry[] {
    return [...this.#heap].sort((a, b) => (this.#before(a, b) ? -1 : 1))
  }
}
