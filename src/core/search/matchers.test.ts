/**
 * The shared matcher suite (matcher.contract.ts) against every strategy that evaluates a search, over
 * every postings representation a strategy may be handed (text-index.ts chooses among them by its
 * thresholds; here each is forced for every word), and against the reference evaluator itself.
 */
import {
  describeMatcher,
  type MatcherStrategy,
  type SuiteCorpus,
  type SuitePage,
} from './matcher.contract.js'
import { SearchOracle, type OracleGroup } from '../../../test/support/search-oracle.js'
import { matchBest } from './best-match.js'
import { CandidateSpace } from './candidate-space.js'
import { DensePostings, type TermPostingsOf } from './dense-postings.js'
import { GroupScratch, isFlatGroup, matchOneGroup, type RunOf } from './match-one-group.js'
import type { FieldStats, Ranking, TermGroup } from './match-plan.js'
import { matchWithPlan } from './match.js'
import { decodePostings } from './postings-codec.js'
import type { Postings } from './postings.js'
import { TextIndexBuilder } from './text-index-builder.js'

/** A hand-made corpus indexed as a snapshot indexes it, with each way of handing out its postings. */
type Indexed = {
  stats: FieldStats
  ranking: Ranking
  groups: (groups: readonly OracleGroup[]) => TermGroup[]
  decoded: (term: number) => Postings
  /** Every word as bits (DensePostings), as text-index.ts hands out the words one document in DENSE_SHARE holds. */
  dense: TermPostingsOf
  /** Every word read from its encoded bytes, as text-index.ts hands out the words past LARGEST_DECODED to one-word searches. */
  encoded: RunOf
  space: CandidateSpace
  /** Blocks of 2 postings, so that encoded words cross blocks. */
  scratch: GroupScratch
}

const indexes = new Map<string, Indexed>()

function indexed(corpus: SuiteCorpus): Indexed {
  const known = indexes.get(corpus.name)
  if (known !== undefined) return known
  const builder = new TextIndexBuilder()
  for (const { title, body } of corpus.documents) builder.add(title, body)
  const part = builder.part()
  const n = corpus.documents.length
  const stats = {
    titleLength: part.titleLength,
    bodyLength: part.bodyLength,
    averageTitle: part.titleWords / n || 1,
    averageBody: part.bodyWords / n || 1,
  }
  const termOf = new Map(part.terms.map((term, id) => [term, id]))
  const run = (term: number) => ({
    bytes: part.postings,
    at: part.termStart[term]!,
    count: part.frequency[term]!,
  })
  const decoded = (term: number) =>
    decodePostings(part.postings, part.termStart[term]!, part.frequency[term]!)
  const made: Indexed = {
    stats,
    ranking: {
      rankClass: Uint8Array.from(corpus.documents, (d) => d.rankClass),
      tieRank: Uint32Array.from(corpus.documents, (d) => d.tieRank),
    },
    // A word no record holds is no term: the interpreter leaves it out of its slot, as here.
    groups: (groups) =>
      groups.map((group) =>
        group.map(({ slots, weight }) => ({
          slots: slots.map((slot) =>
            slot.flatMap(({ word, weight: w }) => {
              const term = termOf.get(word)
              return term === undefined ? [] : [{ term, weight: w }]
            }),
          ),
          weight,
        })),
      ),
    decoded,
    dense: (term) => DensePostings.fromRun(run(term), n),
    encoded: run,
    space: new CandidateSpace(n),
    scratch: new GroupScratch(n, 2),
  }
  indexes.set(corpus.name, made)
  return made
}

const request = (groups: TermGroup[], { offset, limit, keep }: SuitePage) => ({ groups, keep, offset, limit })

const planned = (postings: (index: Indexed) => TermPostingsOf): MatcherStrategy => ({
  all: (corpus, groups, page) => {
    const index = indexed(corpus)
    return matchWithPlan(
      postings(index),
      index.stats,
      index.ranking,
      request(index.groups(groups), page),
      index.space,
    )
  },
})

const oneGroup = (runOf: (index: Indexed) => RunOf): MatcherStrategy => ({
  all: (corpus, groups, page) => {
    const index = indexed(corpus)
    const [only] = index.groups(groups)
    if (groups.length !== 1 || !isFlatGroup(only!)) return undefined
    return matchOneGroup(
      only!,
      runOf(index),
      index.stats,
      index.ranking,
      { ...page, keep: page.keep },
      index.scratch,
    )
  },
})

const best = (
  counting: 'bits' | 'postings',
  postings: (index: Indexed) => TermPostingsOf,
): MatcherStrategy => ({
  best: (corpus, groups, page) => {
    const index = indexed(corpus)
    const {
      total,
      docs,
      masks,
      best: mask,
    } = matchBest(
      postings(index),
      index.stats,
      index.ranking,
      request(index.groups(groups), page),
      index.space,
      counting,
    )
    return { total, docs, masks, best: mask }
  },
})

const oracles = new Map<string, SearchOracle>()
const oracleOf = (corpus: SuiteCorpus) =>
  oracles.get(corpus.name) ?? oracles.set(corpus.name, new SearchOracle(corpus.documents)).get(corpus.name)!

describeMatcher('the reference evaluator', {
  all: (corpus, groups, { offset, limit, keep }) => {
    const docs = oracleOf(corpus).all(groups, keep)
    return { total: docs.length, docs: docs.slice(offset, offset + limit) }
  },
  best: (corpus, groups, { offset, limit, keep }) => {
    const { ranked, best: mask, total } = oracleOf(corpus).best(groups, keep)
    const shown = ranked.slice(offset, offset + limit)
    return { total, docs: shown.map((s) => s.doc), masks: shown.map((s) => s.mask), best: mask }
  },
})
describeMatcher(
  'matchOneGroup over decoded postings',
  oneGroup((i) => i.decoded),
)
describeMatcher(
  'matchOneGroup over encoded runs',
  oneGroup((i) => i.encoded),
)
describeMatcher(
  'matchWithPlan over decoded postings',
  planned((i) => i.decoded),
)
describeMatcher(
  'matchWithPlan over dense postings',
  planned((i) => i.dense),
)
describeMatcher(
  'best match on bits over decoded postings',
  best('bits', (i) => i.decoded),
)
describeMatcher(
  'best match on bits over dense postings',
  best('bits', (i) => i.dense),
)
describeMatcher(
  'best match term at a time over decoded postings',
  best('postings', (i) => i.decoded),
)
describeMatcher(
  'best match term at a time over dense postings',
  best('postings', (i) => i.dense),
)
