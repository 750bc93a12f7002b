/**
 * Evaluates a search over the postings: documents holding every word group, ranked.
 *
 * A query is an AND of groups (one per significant word); a group is an OR of alternatives (the
 * word with its forms, each alias); an alternative is an AND of slots (a phrase's words); a slot is
 * an OR of indexed words, each with a weight (1 for the word as typed, less for its other forms).
 * Candidates come from the smallest group and are checked against the others by galloping search,
 * one document at a time, so the cost follows the rarest word, as before groups existed.
 */
import { GroupScratch, isFlatGroup, matchOneGroup } from './match-one-group.js'
import { Plan, type FieldStats, type Ranking, type TermGroup } from './match-plan.js'
import type { PostingsOf } from './postings.js'
import { topKOf } from './top-k.js'

export type { Alternative, FieldStats, Ranking, TermGroup, WeightedTerm } from './match-plan.js'
export { GroupScratch } from './match-one-group.js'

export type MatchRequest = {
  groups: readonly TermGroup[]
  /** The filters (kind, region); undefined keeps every document. */
  keep: ((doc: number) => boolean) | undefined
  /** Only count the matches (for relaxed queries): no ranking, no page. */
  countOnly?: boolean
  offset: number
  limit: number
}

/**
 * The documents matching `request`, ranked. One group of single words (a one-word query, with its
 * forms and aliases) is read word by word into `scratch` (match-one-group.ts) when one is given:
 * broad words are the slowest queries, and that is several times faster for them.
 */
export function matchGroups(
  postings: PostingsOf,
  stats: FieldStats,
  ranking: Ranking,
  request: MatchRequest,
  scratch?: GroupScratch,
): { total: number; docs: number[] } {
  const [only] = request.groups
  if (scratch !== undefined && request.groups.length === 1 && isFlatGroup(only!)) return matchOneGroup(only!, postings, stats, ranking, request, scratch)
  return matchWithPlan(postings, stats, ranking, request)
}

/** The general evaluation: candidates from the rarest group, checked against the others a document at a time. */
export function matchWithPlan(postings: PostingsOf, stats: FieldStats, ranking: Ranking, request: MatchRequest): { total: number; docs: number[] } {
  const plan = Plan.of(request.groups, postings, stats)
  if (plan === undefined) return { total: 0, docs: [] }
  const candidates = plan.candidates()
  const matched = new Uint32Array(candidates.length)
  const tiers = request.countOnly ? undefined : new Uint8Array(candidates.length)
  const scores = request.countOnly ? undefined : new Float64Array(candidates.length)
  const keep = request.keep
  let total = 0
  for (let i = 0; i < candidates.length; i++) {
    const doc = candidates[i]!
    if ((keep !== undefined && !keep(doc)) || !plan.matches(doc)) continue
    matched[total] = doc
    if (tiers && scores) {
      tiers[total] = Math.min(plan.tier, 255)
      scores[total] = plan.score
    }
    total++
  }
  if (!tiers || !scores) return { total, docs: [] }
  const { rankClass, tieRank } = ranking
  const better = (a: number, b: number) =>
    tiers[b]! - tiers[a]! || rankClass[matched[a]!]! - rankClass[matched[b]!]! || scores[b]! - scores[a]! || tieRank[matched[a]!]! - tieRank[matched[b]!]!
  const page = topKOf(total, request.offset + request.limit, better).slice(request.offset)
  return { total, docs: page.map((m) => matched[m]!) }
}
