/**
 * Evaluates a search over the postings: documents holding every word group, ranked.
 *
 * A query is an AND of groups (one per significant word); a group is an OR of alternatives (the
 * word with its forms, each alias); an alternative is an AND of slots (a phrase's words); a slot is
 * an OR of indexed words, each with a weight (1 for the word as typed, less for its other forms).
 * Candidates come from the smallest group and are checked against the others by galloping search,
 * one document at a time, so the cost follows the rarest word, as before groups existed.
 */
import type { CandidateSpace } from './candidate-space.js'
import { GroupScratch, isFlatGroup, matchOneGroup, type RunOf } from './match-one-group.js'
import { Plan, type FieldStats, type Ranking, type TermGroup } from './match-plan.js'
import { bitsInto, countBits, hasBit, type TermPostingsOf } from './dense-postings.js'
import { runThrough, SliceBudget, STEP_WORK, type Steps } from './steps.js'
import { topKOf } from './top-k.js'

export type { Alternative, FieldStats, Ranking, TermGroup, WeightedTerm } from './match-plan.js'
export { GroupScratch } from './match-one-group.js'
export { CandidateSpace } from './candidate-space.js'

export type MatchRequest = {
  groups: readonly TermGroup[]
  /** The filters (kind, region); undefined keeps every document. */
  keep: ((doc: number) => boolean) | undefined
  /** Only count the matches (for relaxed queries): no ranking, no page. */
  countOnly?: boolean
  offset: number
  limit: number
}

/** Candidates past one document in POSSIBLE_SHARE are narrowed by `Plan.possible` first. */
const POSSIBLE_SHARE = 16

/**
 * The group checks (a candidate against one group) an evaluation makes between two yields: about
 * 8 ms at 1 000 000 records on the machine of docs/scale.md, where the `match=all` of eight of the
 * broadest words checked 47 860 candidates against 8 groups in 40–55 ms at once.
 */
export const STEP_CHECKS = 1 << 16

/** An index's work spaces, reused by each of its searches (they run one at a time). */
export type SearchScratch = { group: GroupScratch; candidates: CandidateSpace }

/**
 * The documents matching `request`, ranked. One group of single words (a one-word query, with its
 * forms and aliases) is read word by word into `scratch.group` (match-one-group.ts) when both
 * `scratch` and `runOf` are given: broad words are the slowest queries, and that is several times
 * faster for them. There its words' postings are `runOf`'s (decoded or encoded).
 * Yields between slices of its evaluation (steps.ts).
 */
export function* matchGroupsInSteps(
  postings: TermPostingsOf,
  stats: FieldStats,
  ranking: Ranking,
  request: MatchRequest,
  scratch?: SearchScratch,
  runOf?: RunOf,
): Steps<{ total: number; docs: number[] }> {
  const [only] = request.groups
  // One group reads each posting once, a few ms for the broadest word at 1 000 000: not sliced.
  if (scratch !== undefined && runOf !== undefined && request.groups.length === 1 && isFlatGroup(only!))
    return matchOneGroup(only!, runOf, stats, ranking, request, scratch.group)
  return yield* matchWithPlanInSteps(postings, stats, ranking, request, scratch?.candidates)
}

/**
 * The general evaluation: candidates from the rarest group, checked against the others a document
 * at a time. Its per-candidate arrays are `space`'s when given, new ones otherwise. A caller that
 * has the documents holding every group as bits (best match, coverage-levels.ts) gives them as
 * `holdingEvery`: they are then the candidates, only to be filtered and scored.
 */
export function matchWithPlan(
  postings: TermPostingsOf,
  stats: FieldStats,
  ranking: Ranking,
  request: MatchRequest,
  space?: CandidateSpace,
  holdingEvery?: Uint32Array,
): { total: number; docs: number[] } {
  return runThrough(matchWithPlanInSteps(postings, stats, ranking, request, space, holdingEvery))
}

/** `matchWithPlan`, yielding every STEP_CHECKS group checks (steps.ts). */
export function* matchWithPlanInSteps(
  postings: TermPostingsOf,
  stats: FieldStats,
  ranking: Ranking,
  request: MatchRequest,
  space?: CandidateSpace,
  holdingEvery?: Uint32Array,
): Steps<{ total: number; docs: number[] }> {
  const plan = Plan.of(request.groups, postings, stats)
  if (plan === undefined) return { total: 0, docs: [] }
  const candidates = holdingEvery === undefined ? plan.candidates(space) : docsOf(holdingEvery, space)
  const { matched, tiers, scores } = space?.perCandidate(candidates.length) ?? {
    matched: new Uint32Array(candidates.length),
    tiers: new Uint8Array(candidates.length),
    scores: new Float64Array(candidates.length),
  }
  // Many candidates (a query of common words only): the documents holding every group are narrowed
  // first a word of 32 documents at a time (match-plan.ts, `possible`).
  const possible =
    holdingEvery === undefined && candidates.length * POSSIBLE_SHARE > stats.titleLength.length
      ? yield* plan.possibleInSteps(new SliceBudget(STEP_WORK))
      : undefined
  const checking: Checking = {
    plan,
    candidates,
    possible,
    keep: request.keep,
    matched,
    tiers,
    scores,
    total: 0,
  }
  for (let next = checkCandidates(checking, 0); next < candidates.length;) {
    yield
    next = checkCandidates(checking, next)
  }
  const total = checking.total
  if (request.countOnly) return { total, docs: [] }
  const { rankClass, tieRank } = ranking
  const better = (a: number, b: number) =>
    tiers[b]! - tiers[a]! ||
    rankClass[matched[a]!]! - rankClass[matched[b]!]! ||
    scores[b]! - scores[a]! ||
    tieRank[matched[a]!]! - tieRank[matched[b]!]!
  const page = topKOf(total, request.offset + request.limit, better).slice(request.offset)
  return { total, docs: page.map((m) => matched[m]!) }
}

/** An evaluation's state between its slices: the candidates, and the matches found so far. */
type Checking = {
  readonly plan: Plan
  readonly candidates: Uint32Array
  readonly possible: Uint32Array | undefined
  readonly keep: ((doc: number) => boolean) | undefined
  readonly matched: Uint32Array
  readonly tiers: Uint8Array
  readonly scores: Float64Array
  total: number
}

/**
 * Checks the candidates from `from` on, until STEP_CHECKS group checks are spent (a candidate left
 * out by `possible` or the filter counts as one); gives the next candidate to check.
 */
function checkCandidates(checking: Checking, from: number): number {
  const { plan, candidates, possible, keep, matched, tiers, scores } = checking
  const cost = plan.groupCount
  let total = checking.total
  let budget = STEP_CHECKS
  let i = from
  for (; i < candidates.length && budget > 0; i++) {
    const doc = candidates[i]!
    budget--
    if (possible !== undefined && !hasBit(possible, doc)) continue
    if (keep !== undefined && !keep(doc)) continue
    budget -= cost
    const found = plan.matches(doc)
    if (found === undefined) continue
    matched[total] = doc
    tiers[total] = Math.min(found.tier, 255)
    scores[total] = found.score
    total++
  }
  checking.total = total
  return i
}

/** The documents whose bit is set, ascending, in `space`'s room for a union when given. */
function docsOf(bits: Uint32Array, space: CandidateSpace | undefined): Uint32Array {
  const count = countBits(bits)
  return bitsInto(bits, space?.union(count) ?? new Uint32Array(count))
}
